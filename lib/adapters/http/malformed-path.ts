import { AppError } from "@/lib/base/errors";
import { publicEndpoint } from "./endpoint";
import { rateRules } from "@/lib/infra/rate-limit";

/**
 * True when a segment of the raw path is not percent-encoded UTF-8 (`%ZZ`, a lone `%`, overlong
 * `%C0%AF`, `%FF`, an encoded surrogate `%ED%A0%80`): Next.js cannot decode it into route params.
 */
export function hasMalformedPath(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}

/** Any method on such a path: 400 `malformed_path` through the whole pipeline (request id, limit, log). */
export const malformedPath = publicEndpoint(rateRules.ip, async () => {
  throw new AppError("malformed_path");
});
