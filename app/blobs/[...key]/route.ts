// GET /blobs/{key} – a processed photo's file from the local storage (.data/blobs), cached for good
import { readPhotoFile } from "@/lib/domain/media/read-photo-file";

/** A file's key is never written twice (each processing has its own folder), so its address may be cached for a year. */
const immutable = "public, max-age=31536000, immutable";

export async function GET(_request: Request, { params }: { params: Promise<{ key: string[] }> }): Promise<Response> {
  const file = await readPhotoFile((await params).key);
  if (!file)
    return new Response("Not found", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  const headers = new Headers({ "content-type": file.contentType, "cache-control": immutable, "x-content-type-options": "nosniff" });
  if (file.size !== undefined) headers.set("content-length", String(file.size));
  return new Response(file.body, { headers });
}
