import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { InvalidBlobKeyError, type BlobStorage } from "@/lib/infra/storage";

/** Keys that must never reach a file system or a Blob pathname. */
export const refusedKeys = [
  "",
  "../escape",
  "a/../../escape",
  "..",
  ".",
  "a/./b",
  "/etc/passwd",
  "a//b",
  "a/",
  ".hidden",
  "a/.tmp-file",
  "a\\..\\b",
  "C:\\windows",
  "%2e%2e/escape",
  "a b",
  "a\u0000b",
  "ünïcode",
  "a?b",
  "a#b",
  "x".repeat(129),
  "a/b/c/d/e/f/g/h/i",
];

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

const everyByte = Buffer.from(Array.from({ length: 512 }, (_, index) => index % 256));

/** What both storages promise, run against each (`make` gives a storage over an empty store). */
export function storageContract(name: string, make: () => BlobStorage) {
  // The local folder keeps bytes only (the tables keep the type); Vercel Blob keeps the type with them.
  const typeBack = (type: string) => (make().kind === "vercel" ? type : undefined);
  describe(`${name} storage: the shared contract`, () => {
    it("puts, gets and deletes a blob: the same bytes back (and the content type where the storage keeps it), then nothing", async () => {
      const storage = make();
      const key = "uploads/acct_1/photo-1.jpg";
      const stored = await storage.put(key, everyByte, "image/jpeg");
      expect(stored).toMatchObject({ key, size: everyByte.length });

      const found = await storage.get(key);
      expect(found).not.toBeNull();
      expect(found!.contentType).toBe(typeBack("image/jpeg"));
      expect(found!.size).toBe(everyByte.length);
      expect(await readAll(found!.body)).toEqual(everyByte);

      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
    });

    it("takes a web stream and a Node stream as the body, and counts their bytes", async () => {
      const storage = make();
      const parts = [Buffer.from("first part,"), Buffer.alloc(70_000, 7), Buffer.from("last")];
      const web = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(new Uint8Array(part));
          controller.close();
        },
      });
      expect((await storage.put("derived/web.webp", web, "image/webp")).size).toBe(70_015);
      expect((await storage.put("derived/node.png", Readable.from(parts), "image/png")).size).toBe(70_015);
      expect(await readAll((await storage.get("derived/web.webp"))!.body)).toEqual(Buffer.concat(parts));
      const node = await storage.get("derived/node.png");
      expect(node!.contentType).toBe(typeBack("image/png"));
      expect(await readAll(node!.body)).toEqual(Buffer.concat(parts));
    });

    it("replaces the bytes of a key written again", async () => {
      const storage = make();
      await storage.put("again/one", Buffer.from("old bytes"), "image/png");
      await storage.put("again/one", Buffer.from("new"), "image/webp");
      const found = await storage.get("again/one");
      expect(found!.contentType).toBe(typeBack("image/webp"));
      expect((await readAll(found!.body)).toString()).toBe("new");
    });

    it("answers null for a key never written, and deleting it is no error", async () => {
      const storage = make();
      expect(await storage.get("never/written.jpg")).toBeNull();
      await expect(storage.delete("never/written.jpg")).resolves.toBeUndefined();
    });

    it("refuses path traversal and every other key that is not safe segments", async () => {
      const storage = make();
      for (const key of refusedKeys) {
        await expect(storage.put(key, Buffer.from("x"), "image/jpeg"), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(storage.get(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(storage.delete(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
        expect(() => storage.publicUrl(key), key).toThrow(InvalidBlobKeyError);
      }
    });

    it("refuses a content type that is not a plain MIME type", async () => {
      const storage = make();
      for (const contentType of ["", "jpeg", "image/jpeg\nx-injected: 1", "image/jpeg\r", 'text/html; charset="utf-8"', "image/ jpeg"]) {
        await expect(storage.put("types/refused", Buffer.from("x"), contentType), contentType).rejects.toThrow(/content type/);
      }
      expect(await storage.get("types/refused")).toBeNull();
    });
  });
}
