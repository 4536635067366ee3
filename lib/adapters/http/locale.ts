import { ValidationError } from "@/lib/base/errors";
import { fromAcceptLanguage, isLocale, resolveLocale, type Locale } from "@/lib/base/i18n";

/** The `locale` query parameter: absent, or exactly `ro` / `en` (anything else is a 422). */
export function queryLocale(url: URL): { value?: Locale; invalid: boolean } {
  const raw = url.searchParams.get("locale");
  if (raw === null) return { invalid: false };
  return isLocale(raw) ? { value: raw, invalid: false } : { invalid: true };
}

export const invalidLocale = () => new ValidationError([{ pointer: "/locale", in: "query", code: "in", params: { values: "ro, en" } }]);

/** Locale for a refusal given before the account is known (401, 429 of keyless requests). */
export const anonymousLocale = (request: Request, url: URL): Locale =>
  queryLocale(url).value ?? fromAcceptLanguage(request.headers.get("accept-language")) ?? resolveLocale({});
