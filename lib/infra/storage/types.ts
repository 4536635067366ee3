import type { Readable } from "node:stream";

/** What `put` accepts: bytes in memory, or a stream read once to its end (a request body, sharp's output). */
export type BlobBody = Uint8Array | ReadableStream<Uint8Array> | Readable;

export interface StoredBlob {
  key: string;
  /** Bytes written. */
  size: number;
  /** Where the blob is read publicly (the storage's own answer). */
  url: string;
}

export interface BlobObject {
  body: ReadableStream<Uint8Array>;
  /** The type the blob was written with, when the storage keeps it (Vercel Blob); the local folder keeps bytes only. */
  contentType: string | undefined;
  /** Bytes, when the storage tells them. */
  size: number | undefined;
}

/**
 * Files behind one small interface: the local folder `.data/blobs` by default, Vercel Blob
 * when `BLOB_READ_WRITE_TOKEN` is set. Keys are relative paths of safe segments (see `keys.ts`); a
 * key that is not one is refused before anything is read or written. Blobs are public once written
 * and are meant to be written once: callers make a new key for new content, so a URL can be cached
 * for good. Writing an existing key replaces it on both storages.
 */
export interface BlobStorage {
  readonly kind: "local" | "vercel";
  put(key: string, body: BlobBody, contentType: string): Promise<StoredBlob>;
  /** The blob's bytes as a stream, or null when there is none under the key. */
  get(key: string): Promise<BlobObject | null>;
  /** Removes the blob; a missing key is not an error (clean-ups repeat). */
  delete(key: string): Promise<void>;
  /** The public address of the key, computed without a request. */
  publicUrl(key: string): string;
}
