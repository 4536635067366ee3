import { blobStorage, isBlobKey } from "@/lib/infra/storage";

/** The types photo derivatives are written with (the photos table records the same), by the key's extension. */
const servedTypes: Record<string, string> = { webp: "image/webp", jpg: "image/jpeg" };

export interface PhotoFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  size: number | undefined;
}

/**
 * A processed photo's file from the local storage, for `/blobs/...` (Vercel Blob serves its own).
 * Only derivatives are public: an upload's raw bytes are no photo until processed, and are never
 * served. Null for anything else, a key that is not one, and when Vercel Blob is in use.
 */
export async function readPhotoFile(segments: readonly string[]): Promise<PhotoFile | null> {
  const key = segments.join("/");
  const type = servedTypes[key.slice(key.lastIndexOf(".") + 1)];
  if (segments[0] !== "photos" || !type || !isBlobKey(key)) return null;
  const storage = blobStorage();
  if (storage.kind !== "local") return null;
  const found = await storage.get(key);
  return found ? { body: found.body, contentType: type, size: found.size } : null;
}
