import { AppError } from "@/lib/base/errors";
import { maxBodyBytes, readLimited } from "./body";

export const formContentType = "application/x-www-form-urlencoded";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * An `application/x-www-form-urlencoded` body (the OAuth endpoints, RFC 6749 §3.2) as one value per
 * name. OAuth errors throughout: another media type, bytes that are not UTF-8, an oversize body or a
 * name sent twice (RFC 6749 §3.2: parameters MUST NOT repeat) are `invalid_request`. Empty values
 * count as absent (RFC 6749 §3.1).
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== formContentType) throw new AppError("invalid_request", { reason: "form_content_type" });
  let text: string;
  try {
    text = utf8.decode(await readLimited(request, maxBodyBytes));
  } catch (error) {
    if (error instanceof AppError || error instanceof TypeError)
      throw new AppError("invalid_request", { reason: "malformed_form", limit: maxBodyBytes });
    throw error;
  }
  const form: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (seen.has(name)) throw new AppError("invalid_request", { reason: "duplicate_parameter", parameter: name });
    seen.add(name);
    if (value !== "") form[name] = value;
  }
  return form;
}
