import { describe, expect, it } from "vitest";
import { GET } from "@/app/blobs/[...key]/route";
import { blobStorage } from "@/lib/infra/storage";
import { webpPhoto } from "@/tests/media/images";
import { useStorage } from "@/tests/media/support";

const get = (key: string[]) => GET(new Request(`http://localhost:3000/blobs/${key.join("/")}`), { params: Promise.resolve({ key }) });

describe("GET /blobs/... on the local storage", () => {
  useStorage("local");

  it("serves a photo derivative as stored, with its type and a year of immutable caching", async () => {
    const bytes = await webpPhoto(40, 30);
    const key = "photos/lst_x/pht_y/abc123/webp_400.webp";
    await blobStorage().put(key, bytes, "image/webp");
    const res = await get(key.split("/"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
  });

  it("answers 404 for uploads (raw bytes are never public), other extensions, traversal and missing files", async () => {
    await blobStorage().put("uploads/upl_0000000000000000", Buffer.from("raw"), "application/octet-stream");
    await blobStorage().put("photos/a/b.html", Buffer.from("<script>"), "text/html");
    for (const key of [
      ["uploads", "upl_0000000000000000"],
      ["photos", "a", "b.html"],
      ["photos", "..", "uploads", "x.jpg"],
      ["photos", "missing.jpg"],
    ]) {
      const res = await get(key);
      expect(res.status, key.join("/")).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("GET /blobs/... with Vercel Blob", () => {
  useStorage("vercel");

  it("answers 404: Vercel Blob serves its files itself", async () => {
    const key = "photos/lst_x/pht_y/abc123/webp_400.webp";
    await blobStorage().put(key, await webpPhoto(10, 10), "image/webp");
    expect((await get(key.split("/"))).status).toBe(404);
  });
});
