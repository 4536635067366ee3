import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isBlobKey } from "@/lib/infra/storage";
import { createLocalBlobStorage } from "@/lib/infra/storage/local";
import { fuzzParameters } from "@/tests/fuzz/support";
import { readAll, refusedKeys, storageContract } from "@/tests/storage/contract";

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(path.join(os.tmpdir(), "blobs-test-"));
  folders.push(made);
  return made;
}
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const local = (root = folder()) => createLocalBlobStorage({ root, publicBaseUrl: "http://localhost:3000/blobs/" });

storageContract("local", () => local());

/** Every file under the folder, relative, temporary ones included. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe("local storage", () => {
  it("keeps a blob as one file at its key under the folder, with no temporary file left", async () => {
    const root = folder();
    const storage = local(root);
    await storage.put("uploads/acct_1/a.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    expect(filesUnder(root)).toEqual([path.join("uploads", "acct_1", "a.jpg")]);
    expect(storage.publicUrl("uploads/acct_1/a.jpg")).toBe("http://localhost:3000/blobs/uploads/acct_1/a.jpg");
    expect((await storage.put("b.webp", Buffer.from("x"), "image/webp")).url).toBe("http://localhost:3000/blobs/b.webp");
  });

  it("stores the bytes as they are, nothing before or after them", async () => {
    const root = folder();
    const storage = local(root);
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x0a, 0x00, 0x62, 0x6c, 0x6f, 0x62]);
    await storage.put("raw/photo.jpg", bytes, "image/jpeg");
    expect(readFileSync(path.join(root, "raw", "photo.jpg"))).toEqual(bytes);
  });

  it("writes nothing under a key when the body fails midway, and keeps what the key held before", async () => {
    const root = folder();
    const storage = local(root);
    await storage.put("photo/original", Buffer.from("the earlier bytes"), "image/png");
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(100_000, 1);
        throw new Error("client went away");
      })(),
    );
    await expect(storage.put("photo/original", failing, "image/png")).rejects.toThrow("client went away");
    await expect(
      storage.put(
        "photo/other",
        Readable.from(
          (async function* () {
            yield Buffer.from("x");
            throw new Error("cut");
          })(),
        ),
        "image/png",
      ),
    ).rejects.toThrow("cut");

    expect(filesUnder(root)).toEqual([path.join("photo", "original")]);
    expect((await readAll((await storage.get("photo/original"))!.body)).toString()).toBe("the earlier bytes");
    expect(await storage.get("photo/other")).toBeNull();
  });

  it("writes nothing outside the folder for any refused key", async () => {
    const parent = folder();
    const root = path.join(parent, "blobs");
    const storage = local(root);
    writeFileSync(path.join(parent, "escape"), "outside");
    for (const key of refusedKeys) await storage.put(key, Buffer.from("x"), "image/jpeg").catch(() => {});
    await storage.delete("escape");
    expect(existsSync(path.join(parent, "escape"))).toBe(true);
    expect(readdirSync(parent)).toEqual(["escape"]);
  });

  it("answers null where a key's folder or a shorter key stands", async () => {
    const storage = local();
    await storage.put("a/b/c", Buffer.from("deep"), "image/jpeg");
    expect(await storage.get("a/b")).toBeNull();
    expect(await storage.get("a/b/c/d")).toBeNull();
  });

  it("keeps the bytes readable for a reader that opened them before a delete", async () => {
    const storage = local();
    await storage.put("race/photo", Buffer.alloc(200_000, 3), "image/jpeg");
    const found = await storage.get("race/photo");
    await storage.delete("race/photo");
    expect((await readAll(found!.body)).length).toBe(200_000);
    expect(await storage.get("race/photo")).toBeNull();
  });

  it("resolves every accepted key inside the folder (property)", () => {
    const root = path.resolve("/srv/blobs");
    const keyish = fc.string({
      unit: fc.constantFrom("a", "Z", "0", ".", "..", "/", "\\", "_", "-", "%2e", "\u0000", " ", "é"),
      maxLength: 24,
    });
    fc.assert(
      fc.property(fc.oneof(keyish, fc.string()), (key) => {
        if (!isBlobKey(key)) return;
        const resolved = path.resolve(root, ...key.split("/"));
        expect(resolved.startsWith(root + path.sep)).toBe(true);
        expect(path.relative(root, resolved).split(path.sep)).toEqual(key.split("/"));
      }),
      fuzzParameters(500),
    );
  });
});
