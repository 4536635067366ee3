import path from "node:path";
import { config } from "@/lib/base/config";
import { createLocalBlobStorage } from "./local";
import type { BlobStorage } from "./types";
import { createVercelBlobStorage } from "./vercel";

export { InvalidBlobKeyError, isBlobKey } from "./keys";
export type { BlobBody, BlobObject, BlobStorage, StoredBlob } from "./types";

/** The local storage's folder: `BLOB_DIR`, by default `.data/blobs` under the working folder (where `npm run dev` keeps `.data/pglite`). */
export const localBlobRoot = (): string => path.resolve(config().BLOB_DIR);

/**
 * The process's file storage: Vercel Blob when `BLOB_READ_WRITE_TOKEN` is set (shared by every
 * instance), otherwise the folder `.data/blobs`, whose keys the application serves under `/blobs/`.
 * Both are stateless, so one is made per call and a changed environment is read by the next.
 */
export function blobStorage(): BlobStorage {
  const c = config();
  if (c.BLOB_READ_WRITE_TOKEN) return createVercelBlobStorage({ token: c.BLOB_READ_WRITE_TOKEN });
  return createLocalBlobStorage({ root: localBlobRoot(), publicBaseUrl: `${c.APP_URL.replace(/\/+$/, "")}/blobs` });
}
