import { BlobNotFoundError, del, head, put } from "@vercel/blob";
import { Readable } from "node:stream";
import { assertContentType, bodyChunks } from "./body";
import { assertBlobKey } from "./keys";
import type { BlobBody, BlobObject, BlobStorage, StoredBlob } from "./types";
import { vercelBlobOrigin } from "./vercel-origin";

/** Blobs are written once under a new key, so browsers and the CDN may keep them for a year. */
const cacheSeconds = 365 * 24 * 60 * 60;

export interface VercelBlobStorageOptions {
  /** `BLOB_READ_WRITE_TOKEN`: `vercel_blob_rw_<store id>_<secret>`. */
  token: string;
}

/**
 * Vercel Blob through `@vercel/blob`, public blobs at their key (no random suffix). The SDK sends its
 * API calls to `VERCEL_BLOB_API_URL` when set, but builds blob addresses on
 * `<store>.public.blob.vercel-storage.com` itself; reads therefore ask the API for the blob (`head`)
 * and fetch the address it answers, which is the same address in production and the fake's in tests.
 */
export function createVercelBlobStorage({ token }: VercelBlobStorageOptions): BlobStorage {
  const publicBase = vercelBlobOrigin(token);

  return {
    kind: "vercel",

    async put(key: string, body: BlobBody, contentType: string): Promise<StoredBlob> {
      assertBlobKey(key);
      assertContentType(contentType);
      let size = 0;
      const upload =
        body instanceof Uint8Array
          ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
          : Readable.from(
              (async function* () {
                for await (const chunk of bodyChunks(body)) {
                  size += chunk.byteLength;
                  yield chunk;
                }
              })(),
            );
      const stored = await put(key, upload, {
        access: "public",
        token,
        contentType,
        addRandomSuffix: false,
        allowOverwrite: true,
        cacheControlMaxAge: cacheSeconds,
      });
      if (stored.pathname !== key) throw new Error(`Vercel Blob stored ${key} as ${stored.pathname}`);
      return { key, size: body instanceof Uint8Array ? body.byteLength : size, url: stored.url };
    },

    async get(key: string): Promise<BlobObject | null> {
      assertBlobKey(key);
      let found: Awaited<ReturnType<typeof head>>;
      try {
        found = await head(key, { token });
      } catch (error) {
        if (error instanceof BlobNotFoundError) return null;
        throw error;
      }
      const response = await fetch(found.url);
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        // Deleted between the two requests.
        if (response.status === 404) return null;
        throw new Error(`Vercel Blob answered ${response.status} for ${key}`);
      }
      return { body: response.body, contentType: response.headers.get("content-type") ?? found.contentType, size: found.size };
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      await del(key, { token });
    },

    publicUrl(key: string): string {
      assertBlobKey(key);
      return `${publicBase}/${key}`;
    },
  };
}
