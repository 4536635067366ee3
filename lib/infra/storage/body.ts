import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { BlobBody } from "./types";

/** The chunks of a body, whatever its kind; a stream is read once, to its end. */
export async function* bodyChunks(body: BlobBody): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  const stream = body instanceof Readable ? body : Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  for await (const chunk of stream as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === "string" ? Buffer.from(chunk) : chunk;
  }
}

/**
 * A MIME type as stored and served back: `type/subtype` with optional `; name=value` parameters, no
 * quotes and nothing a header could be broken with.
 */
const contentTypePattern =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}(?:; ?[A-Za-z0-9_.-]{1,32}=[A-Za-z0-9_.+-]{1,64}){0,4}$/;

export function assertContentType(contentType: string): void {
  if (!contentTypePattern.test(contentType)) throw new Error(`invalid blob content type: ${JSON.stringify(contentType.slice(0, 80))}`);
}
