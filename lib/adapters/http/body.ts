import { AppError } from "@/lib/base/errors";
import { maxNestingDepth, nestingDepth } from "@/lib/base/validation/json-depth";

export { maxNestingDepth };

/** Largest JSON body accepted (documented in docs/api.md and the OpenAPI document). */
export const maxBodyBytes = 1_048_576;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a JSON body with its media type and size checked first: a wrong type is 415, an oversize
 * body 413, bytes that are not UTF-8 or not JSON 400, nesting deeper than `maxNestingDepth` 400.
 * Never a 5xx for anything the client sends.
 */
export async function readJsonBody(request: Request, accepted: readonly string[] = ["application/json"]): Promise<unknown> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!accepted.includes(mediaType)) throw new AppError("unsupported_media_type", { expected: accepted.join(" or ") });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) throw new AppError("payload_too_large", { limit: maxBodyBytes });
  const text = decodeUtf8(await readLimited(request, maxBodyBytes));
  if (!text.trim()) throw new AppError("malformed_json");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("malformed_json");
  }
  if (nestingDepth(value) > maxNestingDepth) throw new AppError("nesting_too_deep", { limit: maxNestingDepth });
  return value;
}

/** RFC 8259 §8.1: JSON text exchanged between systems is UTF-8; other bytes are refused, not replaced. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError("invalid_encoding");
  }
}

/** The body's bytes, refused with 413 once they exceed `limit` (read as they come: a lying Content-Length does not help). */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new AppError("payload_too_large", { limit });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
