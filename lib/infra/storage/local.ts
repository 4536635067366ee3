import { randomUUID } from "node:crypto";
import { mkdir, open, rename, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { assertContentType, bodyChunks } from "./body";
import { assertBlobKey } from "./keys";
import type { BlobBody, BlobObject, BlobStorage, StoredBlob } from "./types";

export interface LocalBlobStorageOptions {
  /** The folder, `.data/blobs` in the application. */
  root: string;
  /** The public address of the folder's keys, without a trailing slash (`{APP_URL}/blobs`). */
  publicBaseUrl: string;
}

/**
 * The embedded default: files in a local folder, written to a temporary file and renamed into place.
 * A file holds the blob's bytes as they are, so the folder can be served or copied as it is; the
 * content type is checked on `put` but kept by the caller (the uploads and photos tables), not here.
 */
export function createLocalBlobStorage({ root, publicBaseUrl }: LocalBlobStorageOptions): BlobStorage {
  const base = path.resolve(root);
  const publicBase = publicBaseUrl.replace(/\/+$/, "");

  // Keys are checked first; the resolved path is checked again so that no key reaches outside the folder.
  function fileOf(key: string): string {
    assertBlobKey(key);
    const file = path.resolve(base, ...key.split("/"));
    const relative = path.relative(base, file);
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) throw new Error(`blob key outside the folder: ${key}`);
    return file;
  }

  return {
    kind: "local",

    async put(key: string, body: BlobBody, contentType: string): Promise<StoredBlob> {
      const file = fileOf(key);
      assertContentType(contentType);
      await mkdir(path.dirname(file), { recursive: true });
      // In the blob's own folder, so the rename stays on one file system; keys never start with `.`.
      const temporary = path.join(path.dirname(file), `.tmp-${randomUUID()}`);
      let handle: FileHandle | undefined;
      let size = 0;
      try {
        handle = await open(temporary, "wx", 0o644);
        for await (const chunk of bodyChunks(body)) {
          await handle.write(chunk);
          size += chunk.byteLength;
        }
        await handle.sync();
        await handle.close();
        handle = undefined;
        await rename(temporary, file);
      } catch (error) {
        await handle?.close().catch(() => {});
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, size, url: `${publicBase}/${key}` };
    },

    async get(key: string): Promise<BlobObject | null> {
      const file = fileOf(key);
      let handle: FileHandle;
      try {
        handle = await open(file, "r");
      } catch (error) {
        // ENOTDIR: a segment of the key is a blob itself, so nothing is under the key.
        if (["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return null;
        throw error;
      }
      try {
        const stats = await handle.stat();
        // A folder of longer keys, not a blob.
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        // The open handle keeps the bytes readable even when the blob is deleted meanwhile.
        const stream = handle.createReadStream({ autoClose: true });
        return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, contentType: undefined, size: stats.size };
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      await rm(fileOf(key), { force: true });
    },

    publicUrl(key: string): string {
      assertBlobKey(key);
      return `${publicBase}/${key}`;
    },
  };
}
