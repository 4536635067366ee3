import { AppError } from "@/lib/base/errors";
import { maxImportBodyBytes } from "@/lib/domain/imports/limits";
import { decodeImportText } from "@/lib/domain/imports/source";
import { BodyTooLargeError, OutboundError, safeRequest, type SafeResponse } from "@/lib/infra/net/safe-request";
import { feedPullMaxRedirects, feedPullTimeoutMs } from "../limits";

/** What a pull fetched: a new file as NDJSON text, the same file as before (304), or why there is none. */
export type Fetched =
  | { kind: "changed"; status: number; text: string; etag: string | null; lastModified: string | null }
  | { kind: "unchanged"; status: 304 }
  | { kind: "failed"; status: number | null; errorCode: string };

/**
 * One conditional GET of a feed's URL through the SSRF-safe client (the address checked where the
 * connection is made, redirects checked alike), with the validators of the last file imported: an
 * unchanged file costs one `304`. The body is read whole up to the import's own limit
 * (`maxImportBodyBytes`: a larger file is refused, nothing imported) within `timeoutMs`.
 */
export async function fetchFeed(
  url: string,
  validators: { etag: string | null; lastModified: string | null },
  timeoutMs = feedPullTimeoutMs,
): Promise<Fetched> {
  let answer: SafeResponse;
  try {
    answer = await safeRequest({
      method: "GET",
      url,
      headers: {
        "user-agent": "Service-Feeds/1",
        accept: "application/x-ndjson, application/json;q=0.9, */*;q=0.1",
        ...(validators.etag ? { "if-none-match": validators.etag } : {}),
        ...(validators.lastModified ? { "if-modified-since": validators.lastModified } : {}),
      },
      timeoutMs,
      read: "whole",
      maxBytes: maxImportBodyBytes,
      maxRedirects: feedPullMaxRedirects,
    });
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { kind: "failed", status: null, errorCode: "payload_too_large" };
    if (error instanceof OutboundError) return { kind: "failed", status: null, errorCode: error.reason };
    throw error;
  }
  if (answer.status === 304) return { kind: "unchanged", status: 304 };
  if (answer.status !== 200) return { kind: "failed", status: answer.status, errorCode: "http_error" };
  try {
    return {
      kind: "changed",
      status: 200,
      text: feedText(answer.body, answer.headers["content-type"]),
      etag: answer.headers.etag ?? null,
      lastModified: answer.headers["last-modified"] ?? null,
    };
  } catch (error) {
    if (error instanceof AppError) return { kind: "failed", status: 200, errorCode: error.code };
    throw error;
  }
}

/**
 * The file as the import's NDJSON lines. A JSON array (its media type `application/json`, or its
 * first non-blank character `[`) becomes one line per element, in order; anything else is read as
 * NDJSON. Bytes that are not UTF-8 are `invalid_encoding`; an array that is not JSON, `malformed_json`.
 */
export function feedText(body: Buffer, contentType: string | undefined): string {
  const text = decodeImportText(body).replace(/^\uFEFF/, "");
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const first = text.trimStart()[0];
  if (mediaType !== "application/json" && first !== "[") return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("malformed_json");
  }
  if (!Array.isArray(value)) throw new AppError("malformed_json");
  return value.map((element) => JSON.stringify(element)).join("\n");
}
