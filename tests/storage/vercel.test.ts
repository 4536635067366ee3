import { BlobAccessError } from "@vercel/blob";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { blobStorage } from "@/lib/infra/storage";
import { createVercelBlobStorage } from "@/lib/infra/storage/vercel";
import { startFakeVercelBlob, type FakeVercelBlob } from "../support/fake-vercel-blob";
import { readAll, storageContract } from "./contract";
import { restoreEnv, setEnv } from "../support/env";

let fake: FakeVercelBlob;

beforeAll(async () => {
  fake = await startFakeVercelBlob();
  // @vercel/blob reads both on every call; without the second a refused call is retried 10 times.
  vi.stubEnv("VERCEL_BLOB_API_URL", fake.apiUrl);
  vi.stubEnv("VERCEL_BLOB_RETRIES", "0");
});

afterAll(async () => {
  restoreEnv();
  await fake.close();
});

storageContract("Vercel Blob (local fake of its API)", () => createVercelBlobStorage({ token: fake.token }));

describe("Vercel Blob storage", () => {
  it("puts public blobs at their key, without random suffix, overwritable, cached for a year, through the API address set", async () => {
    const storage = createVercelBlobStorage({ token: fake.token });
    const from = fake.requests.length;
    const stored = await storage.put("photos/lst_1/1600.webp", Buffer.from("webp bytes"), "image/webp");

    const [request] = fake.requests.slice(from);
    expect(request).toMatchObject({ method: "PUT", url: "/api/blob/?pathname=photos%2Flst_1%2F1600.webp" });
    expect(request.headers).toMatchObject({
      authorization: `Bearer ${fake.token}`,
      "x-vercel-blob-access": "public",
      "x-content-type": "image/webp",
      "x-add-random-suffix": "0",
      "x-allow-overwrite": "1",
      "x-cache-control-max-age": "31536000",
    });
    expect(fake.objects.get("photos/lst_1/1600.webp")?.bytes.toString()).toBe("webp bytes");
    // The address the service answered (the fake's), and the one computed for the real service's public host.
    expect(stored.url).toBe(`${fake.apiUrl.replace("/api/blob", "")}/files/photos/lst_1/1600.webp`);
    expect(storage.publicUrl("photos/lst_1/1600.webp")).toBe("https://fakestore01.public.blob.vercel-storage.com/photos/lst_1/1600.webp");
  });

  it("reads a blob by asking the API where it is, and deletes it through the API", async () => {
    const storage = createVercelBlobStorage({ token: fake.token });
    await storage.put("read/me.jpg", Buffer.from("jpeg"), "image/jpeg");
    const from = fake.requests.length;
    const found = await storage.get("read/me.jpg");
    expect(await readAll(found!.body)).toEqual(Buffer.from("jpeg"));
    expect(fake.requests.slice(from).map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /api/blob?url=read%2Fme.jpg",
      "GET /files/read/me.jpg",
    ]);

    await storage.delete("read/me.jpg");
    const deletion = fake.requests.at(-1)!;
    expect(`${deletion.method} ${deletion.url}`).toBe("POST /api/blob/delete");
    expect(fake.objects.has("read/me.jpg")).toBe(false);
  });

  it("fails, and stores nothing, with a token the store refuses", async () => {
    const storage = createVercelBlobStorage({ token: `vercel_blob_rw_${fake.storeId}_notTheSecret` });
    await expect(storage.put("refused/blob", Buffer.from("x"), "image/jpeg")).rejects.toBeInstanceOf(BlobAccessError);
    await expect(storage.get("refused/blob")).rejects.toBeInstanceOf(BlobAccessError);
    expect(fake.objects.has("refused/blob")).toBe(false);
  });

  it("refuses a token without a store id", () => {
    expect(() => createVercelBlobStorage({ token: "not-a-blob-token" })).toThrow(/vercel_blob_rw_/);
    expect(() => createVercelBlobStorage({ token: "vercel_blob_rw__secret" })).toThrow(/vercel_blob_rw_/);
  });
});

describe("choosing the storage", () => {
  it("is Vercel Blob when BLOB_READ_WRITE_TOKEN is set, the local folder served under APP_URL/blobs otherwise", async () => {
    setEnv({ BLOB_READ_WRITE_TOKEN: fake.token });
    const vercel = blobStorage();
    expect(vercel.kind).toBe("vercel");
    await vercel.put("chosen/by-env", Buffer.from("via the environment"), "text/plain");
    expect(fake.objects.get("chosen/by-env")?.bytes.toString()).toBe("via the environment");

    setEnv({ BLOB_READ_WRITE_TOKEN: undefined });
    const local = blobStorage();
    expect(local.kind).toBe("local");
    expect(local.publicUrl("a/b.jpg")).toBe("http://localhost:3000/blobs/a/b.jpg");
  });
});
