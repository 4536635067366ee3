import { AppError } from "@/lib/errors";

/** Largest JSON body accepted (documented in the README and the OpenAPI document). */
export const maxBodyBytes = 1_048_576;

/**
 * Reads a JSON body with its media type and size checked first: a wrong type is 415, an oversize
 * body 413, bytes that are not JSON 400. Never a 5xx for anything the client sends.
 */
export async function readJsonBody(request: Request, accepted: readonly string[] = ["application/json"]): Promise<unknown> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!accepted.includes(mediaType)) throw new AppError("unsupported_media_type", { expected: accepted.join(" or ") });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) throw new AppError("payload_too_large", { limit: maxBodyBytes });
  const text = await readLimited(request, maxBodyBytes);
  if (!text.trim()) throw new AppError("malformed_json");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("malformed_json");
  }
}

async function readLimited(request: Request, limit: number): Promise<string> {
  if (!request.body) return "";
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
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}
