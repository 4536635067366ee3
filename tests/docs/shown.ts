import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import type { GuideSlug } from "@/lib/adapters/docs/guides";
import type { Locale } from "@/lib/base/i18n";
import { inProcessFetch } from "../support/in-process-fetch";

/** The block a guide shows right after the sample `title`: what the guide says the sample prints or answers. */
export function shownAfter(locale: Locale, slug: GuideSlug, title: string): string {
  const blocks = codeSamples(guideSource(locale, slug));
  const at = blocks.findIndex((block) => block.title === title);
  if (at < 0 || at + 1 >= blocks.length) throw new Error(`no block after ${title} in the ${locale} ${slug} guide`);
  return blocks[at + 1].code;
}

/** The printed lines of a shell sample, without the trailing spaces curl's `-w` leaves. */
export const lines = (output: string) =>
  output
    .trimEnd()
    .split("\n")
    .map((line) => line.trimEnd());

/** A request to the API as the key's holder, answered by the route handlers in this process. */
export async function api(key: string, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await inProcessFetch(
    new Request(`http://localhost:3000/api/v1${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}
