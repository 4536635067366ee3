// GET /sandbox/sample-photo.jpg – a JPEG the quickstart's readers upload to their listing
import { config } from "@/lib/base/config";
import { drawQuickstartPhoto } from "@/lib/domain/seed/sample-photos";

/** A drawn living room (the sandbox's own kind of photo), in the sandbox only; not found in production. */
export async function GET(): Promise<Response> {
  if (config().APP_ENV !== "sandbox")
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const photo = await drawQuickstartPhoto();
  return new Response(new Uint8Array(photo), {
    headers: {
      "content-type": "image/jpeg",
      "content-length": String(photo.length),
      "cache-control": "public, max-age=3600",
      "content-disposition": 'inline; filename="sample-photo.jpg"',
    },
  });
}
