import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as uploadsRoute from "@/app/api/v1/uploads/route";
import { database } from "@/db";
import { uploads } from "@/db/schema";
import { createUpload } from "@/lib/domain/media/create-upload";
import { maxPhotoBytes, uploadBlobKey, uploadContentType } from "@/lib/domain/media/limits";
import { accountContext } from "@/lib/base/context";
import { accountWithKey, call } from "../support/fixtures";
import { readBlob, requestUpload, sendUpload, storageKinds, useStorage } from "./support";

const octets = (size: number) => new Uint8Array(randomBytes(size));

describe("POST /uploads", () => {
  it("answers a PUT URL on this API, pre-signed for 15 minutes, with the Content-Type to send and a key", async () => {
    const { key, account } = await accountWithKey();
    const before = Date.now();
    const grant = await requestUpload(key, 1234);
    expect(grant).toEqual({
      method: "PUT",
      url: expect.any(String),
      headers: { "Content-Type": uploadContentType },
      key: expect.stringMatching(/^upl_/),
    });
    const url = new URL(grant.url);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:3000/api/v1/uploads/${grant.key}`);
    const expires = Number(url.searchParams.get("expires")) * 1000;
    expect(expires).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000);
    const [row] = await (await database()).connection.select().from(uploads).where(eq(uploads.key, grant.key));
    expect(row).toMatchObject({ accountId: account.id, contentLength: 1234, contentType: uploadContentType, usedAt: null });
  });

  it("takes 1 byte to 20 MiB; anything else is a 422 at /content_length", async () => {
    const { key } = await accountWithKey();
    expect((await requestUpload(key, 1)).key).toMatch(/^upl_/);
    expect((await requestUpload(key, maxPhotoBytes)).key).toMatch(/^upl_/);
    const refused = [
      [0, "min"],
      [maxPhotoBytes + 1, "max"],
      [1.5, "integer"],
      ["100", "numeric"],
      [null, "required"],
    ] as const;
    for (const [value, code] of refused) {
      const res = await call(uploadsRoute.POST, { path: "/uploads", method: "POST", key, body: { content_length: value } });
      expect(res.status, String(value)).toBe(422);
      expect(res.json!.errors).toEqual([expect.objectContaining({ pointer: "/content_length", code })]);
    }
    const missing = await call(uploadsRoute.POST, { path: "/uploads?locale=ro", method: "POST", key, body: {} });
    expect(missing.json!.errors).toEqual([{ pointer: "/content_length", code: "required", detail: "Câmpul este obligatoriu." }]);
  });

  it("needs a key with media:write", async () => {
    const none = await call(uploadsRoute.POST, { path: "/uploads", method: "POST", body: { content_length: 10 } });
    expect(none).toMatchObject({ status: 401, json: { code: "unauthenticated", reason: "missing_key" } });
    const { key } = await accountWithKey({ permissions: ["listings:read", "listings:write"] });
    const res = await call(uploadsRoute.POST, { path: "/uploads", method: "POST", key, body: { content_length: 10 } });
    expect(res).toMatchObject({ status: 403, json: { code: "missing_ability" } });
  });
});

describe.each(storageKinds)("PUT to the upload URL, %s storage", (kind) => {
  const { storage } = useStorage(kind);

  it("stores the body as it is under the key, and refuses the same URL afterwards (replay)", async () => {
    const { key } = await accountWithKey();
    const bytes = octets(70_001);
    const grant = await requestUpload(key, bytes.byteLength);
    const headers = { ...grant.headers, "Content-Length": String(bytes.byteLength) };
    expect((await sendUpload(grant.url, bytes, headers)).status).toBe(204);
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toEqual(Buffer.from(bytes));
    const [row] = await (await database()).connection.select().from(uploads).where(eq(uploads.key, grant.key));
    expect(row.storedAt).toBeInstanceOf(Date);

    const replay = await sendUpload(grant.url, octets(bytes.byteLength), headers);
    expect(replay).toMatchObject({ status: 409, json: { code: "upload_already_used" } });
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toEqual(Buffer.from(bytes));
  });

  it("refuses a forged signature, a changed expiry or key, and an unknown key alike, storing nothing", async () => {
    const { key } = await accountWithKey();
    const grant = await requestUpload(key, 10);
    const other = await requestUpload(key, 10);
    const headers = { ...grant.headers, "Content-Length": "10" };
    const url = new URL(grant.url);
    const signature = url.searchParams.get("signature")!;
    const forged = (edit: (u: URL) => void) => {
      const copy = new URL(url);
      edit(copy);
      return copy.toString();
    };
    const attempts = [
      forged((u) => u.searchParams.set("signature", `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`)),
      forged((u) => u.searchParams.set("signature", "v1.not-a-signature")),
      forged((u) => u.searchParams.delete("signature")),
      forged((u) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600))),
      forged((u) => u.searchParams.delete("expires")),
      // Another real key with this URL's signature.
      forged((u) => (u.pathname = u.pathname.replace(grant.key, other.key))),
      forged((u) => (u.pathname = u.pathname.replace(grant.key, "upl_0000000000000000"))),
    ];
    for (const attempt of attempts) {
      const res = await sendUpload(attempt, octets(10), headers);
      expect(res, attempt).toMatchObject({ status: 403, json: { code: "upload_signature_invalid" } });
    }
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toBeNull();
    expect(await readBlob(storage(), uploadBlobKey(other.key))).toBeNull();
    // Nothing was taken: the real URL still works.
    expect((await sendUpload(grant.url, octets(10), headers)).status).toBe(204);
  });

  it("refuses an expired URL, in English and Romanian", async () => {
    const { account } = await accountWithKey();
    const ctx = accountContext(await database(), { accountId: account.id, agency: null }, { now: new Date(Date.now() - 16 * 60_000) });
    const grant = await createUpload({ ctx, input: { content_length: 5 } });
    const headers = { ...grant.headers, "Content-Length": "5" };
    const en = await sendUpload(grant.url, octets(5), headers);
    expect(en).toMatchObject({ status: 403, json: { code: "upload_expired", title: "Upload URL expired" } });
    const ro = await sendUpload(grant.url, octets(5), { ...headers, "Accept-Language": "ro" });
    expect(ro).toMatchObject({ status: 403, json: { code: "upload_expired", title: "Adresă de încărcare expirată" } });
    expect(ro.headers.get("content-type")).toBe("application/problem+json");
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toBeNull();
  });

  it("refuses another Content-Type and another or no Content-Length, storing nothing and keeping the URL usable", async () => {
    const { key } = await accountWithKey();
    const grant = await requestUpload(key, 8);
    const wrongType = await sendUpload(grant.url, octets(8), { "Content-Type": "image/jpeg", "Content-Length": "8" });
    expect(wrongType).toMatchObject({
      status: 415,
      json: { code: "unsupported_media_type", detail: "Send the body as application/octet-stream." },
    });
    const wrongLength = await sendUpload(grant.url, octets(9), { ...grant.headers, "Content-Length": "9" });
    expect(wrongLength).toMatchObject({ status: 400, json: { code: "upload_length_mismatch" } });
    expect(wrongLength.json!.detail).toContain("Content-Length: 8");
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(octets(8));
        controller.close();
      },
    });
    const noLength = await sendUpload(grant.url, chunked, grant.headers);
    expect(noLength).toMatchObject({ status: 400, json: { code: "upload_length_mismatch" } });
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toBeNull();
    expect((await sendUpload(grant.url, octets(8), { ...grant.headers, "Content-Length": "8" })).status).toBe(204);
  });

  it("stops reading a body longer than declared and stores nothing; a short body stores nothing either", async () => {
    const { key } = await accountWithKey();
    const grant = await requestUpload(key, 1000);
    const headers = { ...grant.headers, "Content-Length": "1000" };
    let pulled = 0;
    // An endless body: the upload must stop reading it, or this test never ends.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(octets(512));
      },
    });
    const tooLong = await sendUpload(grant.url, endless, headers);
    expect(tooLong).toMatchObject({ status: 413, json: { code: "payload_too_large", detail: "The request body exceeds 1,000 bytes." } });
    expect(pulled).toBeLessThan(10);
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toBeNull();

    const short = await sendUpload(grant.url, octets(999), headers);
    expect(short).toMatchObject({ status: 400, json: { code: "upload_incomplete" } });
    expect(await readBlob(storage(), uploadBlobKey(grant.key))).toBeNull();

    expect((await sendUpload(grant.url, octets(1000), headers)).status).toBe(204);
  });

  it("answers a key that is no upload key's shape with 404, like any path that names nothing", async () => {
    const res = await sendUpload("http://localhost:3000/api/v1/uploads/not-a-key?expires=1&signature=x", octets(1), {
      "Content-Type": uploadContentType,
      "Content-Length": "1",
    });
    expect(res).toMatchObject({ status: 404, json: { code: "not_found" } });
  });
});
