import { describe, expect, it } from "vitest";
import { PUT as putByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { GET as readByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { accountWithKey, call } from "../support/fixtures";
import { createListing, validApartment } from "../support/listings";
import { getImport, ndjson, postImport, runImportToEnd } from "./support";

const line = (ref: string, overrides: Record<string, unknown> = {}) => validApartment({ external_ref: ref, ...overrides });

const put = (key: string, ref: string, body: Record<string, unknown>) =>
  call(putByRef, { path: `/listings/ref/${ref}`, method: "PUT", key, body, params: { ref } });

const read = async (key: string, ref: string) =>
  (await call(readByRef, { path: `/account/listings/ref/${ref}`, key, params: { ref } })).json!.data;

describe("source_updated_at", () => {
  it("is stored on POST /listings and shown in the detail, and a later PUT older than it writes nothing (409 stale_source)", async () => {
    const { key } = await accountWithKey();
    const created = await createListing(key, line("src-1", { source_updated_at: "2025-03-01T10:00:00+02:00" }));
    expect(created.source_updated_at).toBe("2025-03-01T08:00:00.000Z");

    const older = await put(key, "src-1", { price: 1, source_updated_at: "2025-03-01T07:59:59Z" });
    expect(older.status).toBe(409);
    expect(older.json).toMatchObject({ code: "stale_source" });
    expect(older.json!.detail).toContain("2025-03-01T07:59:59.000Z");
    const after = await read(key, "src-1");
    expect(after.price).toBe(created.price);
    expect(after.etag).toBe(created.etag);
  });

  it("applies a write of the same time or a newer one, and refuses the older one sent after it", async () => {
    const { key } = await accountWithKey();
    expect((await put(key, "src-2", line("src-2", { source_updated_at: "2025-03-01T08:00:00Z" }))).status).toBe(201);
    const same = await put(key, "src-2", { price: 100_000, source_updated_at: "2025-03-01T08:00:00Z" });
    expect(same.status).toBe(200);
    const newer = await put(key, "src-2", { price: 110_000, source_updated_at: "2025-03-02T08:00:00Z" });
    expect(newer.status).toBe(200);
    expect(newer.json!.data).toMatchObject({ price: 110_000, source_updated_at: "2025-03-02T08:00:00.000Z" });
    // The older version arriving late, after the newer one: refused.
    const late = await put(key, "src-2", { price: 100_000, source_updated_at: "2025-03-01T09:00:00Z" });
    expect(late.status).toBe(409);
    expect((await read(key, "src-2")).price).toBe(110_000);
  });

  it("keeps a newer time sent with an unchanged body without a new version, so an older write after it stays refused", async () => {
    const { key } = await accountWithKey();
    const first = await put(key, "src-3", line("src-3", { source_updated_at: "2025-03-01T08:00:00Z" }));
    const same = await put(key, "src-3", { source_updated_at: "2025-03-03T08:00:00Z" });
    expect(same.status).toBe(200);
    expect(same.headers.get("x-service-unchanged")).toBe("true");
    expect(same.json!.data).toMatchObject({ etag: first.json!.data.etag, source_updated_at: "2025-03-03T08:00:00.000Z" });
    expect((await put(key, "src-3", { price: 1, source_updated_at: "2025-03-02T08:00:00Z" })).status).toBe(409);
  });

  it("writes as before without one, and refuses a time without its offset at /source_updated_at", async () => {
    const { key } = await accountWithKey();
    await put(key, "src-4", line("src-4", { source_updated_at: "2025-03-01T08:00:00Z" }));
    expect((await put(key, "src-4", { price: 120_000 })).status).toBe(200);
    const malformed = await put(key, "src-4", { price: 130_000, source_updated_at: "2025-03-05 08:00" });
    expect(malformed.status).toBe(422);
    expect(malformed.json!.errors).toEqual([expect.objectContaining({ pointer: "/source_updated_at", code: "date_format" })]);
    const detail = await read(key, "src-4");
    expect(detail).toMatchObject({ price: 120_000, source_updated_at: "2025-03-01T08:00:00.000Z" });
  });

  it("refuses a PUT older than the version an import line stored, and keeps that version", async () => {
    const { key } = await accountWithKey();
    const posted = await postImport(key, ndjson([line("src-7", { price: 160_000, source_updated_at: "2025-03-05T08:00:00Z" })]));
    await runImportToEnd(posted.json!.data.id);
    expect((await getImport(key, posted.json!.data.id)).json!.data.results[0]).toMatchObject({ outcome: "created" });
    const older = await put(key, "src-7", { price: 150_000, source_updated_at: "2025-03-04T08:00:00Z" });
    expect(older.status).toBe(409);
    expect(older.json).toMatchObject({ code: "stale_source" });
    expect(await read(key, "src-7")).toMatchObject({ price: 160_000, source_updated_at: "2025-03-05T08:00:00.000Z" });
  });

  it("ends an import line older than the listing `stale`, writing nothing, in either order of the two versions", async () => {
    const { key } = await accountWithKey();
    await put(key, "src-5", line("src-5", { price: 200_000, source_updated_at: "2025-03-02T08:00:00Z" }));
    await put(key, "src-6", line("src-6", { price: 200_000, source_updated_at: "2025-03-01T08:00:00Z" }));
    const posted = await postImport(
      key,
      ndjson([
        { external_ref: "src-5", price: 150_000, source_updated_at: "2025-03-01T08:00:00Z" },
        { external_ref: "src-6", price: 150_000, source_updated_at: "2025-03-02T08:00:00Z" },
      ]),
    );
    await runImportToEnd(posted.json!.data.id);
    const { data } = (await getImport(key, posted.json!.data.id)).json!;
    expect(data.lines).toMatchObject({ total: 2, done: 2, updated: 1, stale: 1, refused: 0 });
    expect(data.results[0]).toMatchObject({ line: 1, external_ref: "src-5", outcome: "stale", error_code: "stale_source", code: null });
    expect(data.results[0].detail).toEqual(expect.any(String));
    expect(data.results[1]).toMatchObject({ line: 2, external_ref: "src-6", outcome: "updated" });
    expect(await read(key, "src-5")).toMatchObject({ price: 200_000, source_updated_at: "2025-03-02T08:00:00.000Z" });
    expect(await read(key, "src-6")).toMatchObject({ price: 150_000, source_updated_at: "2025-03-02T08:00:00.000Z" });
  });
});
