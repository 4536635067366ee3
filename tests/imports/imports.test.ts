import { describe, expect, it } from "vitest";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { maxImportLines } from "@/lib/domain/imports/limits";
import { accountWithKey, call } from "../support/fixtures";
import { createListing, validApartment } from "../support/listings";
import { getImport, ndjson, postImport, runImportToEnd, runImports } from "./support";
import { database } from "@/db";
import { systemContext } from "@/lib/base/context";
import { processImport } from "@/lib/domain/imports/process-import";
import { requestUpload, sendUpload, useStorage } from "../media/support";
import { loggedRow } from "../support/api-log-rows";

const line = (ref: string, overrides: Record<string, unknown> = {}) => validApartment({ external_ref: ref, ...overrides });

describe("POST /listings/imports and GET /listings/imports/{id}", () => {
  it("applies each line as PUT /listings/ref would: created, updated, unchanged, refused", async () => {
    const { key } = await accountWithKey();
    const existing = await createListing(key, line("crm-2"));
    await createListing(key, line("crm-3"));
    const body = ndjson([
      line("crm-1"),
      { external_ref: "crm-2", price: 123456 },
      line("crm-3"),
      "{not json",
      { title: "No reference here at all" },
      line("crm-6", { rooms: 99 }),
    ]);
    const posted = await postImport(key, body);
    expect(posted.status).toBe(202);
    expect(posted.json!.data).toEqual({ id: expect.stringMatching(/^imp_/), status: "queued" });
    const id = posted.json!.data.id as string;
    expect(posted.headers.get("location")).toBe(`/api/v1/listings/imports/${id}`);
    expect((await getImport(key, id)).json!.data).toMatchObject({ status: "queued", lines: { total: 6, done: 0 } });

    await runImports();
    const read = await getImport(key, id);
    expect(read.status).toBe(200);
    const { data, meta } = read.json!;
    expect(meta.next).toBeNull();
    expect(data.status).toBe("completed");
    expect(data.lines).toEqual({ total: 6, done: 6, created: 1, updated: 1, unchanged: 1, refused: 3, stale: 0, withdrawn: 0 });
    const [created, updated, unchanged, notJson, noRef, invalid] = data.results;
    expect(created).toMatchObject({
      line: 1,
      external_ref: "crm-1",
      outcome: "created",
      code: expect.any(String),
      error_code: null,
      errors: [],
    });
    expect(updated).toMatchObject({ line: 2, outcome: "updated", code: existing.code });
    expect(unchanged).toMatchObject({ line: 3, outcome: "unchanged" });
    expect(notJson).toMatchObject({ line: 4, outcome: "refused", code: null, error_code: "malformed_json", external_ref: null });
    expect(noRef).toMatchObject({ line: 5, outcome: "refused", error_code: "validation_failed" });
    expect(noRef.errors).toEqual([{ pointer: "/external_ref", code: "required", detail: expect.any(String) }]);
    expect(invalid).toMatchObject({ line: 6, outcome: "refused", external_ref: "crm-6", error_code: "validation_failed" });
    expect(invalid.errors.map((e: { pointer: string }) => e.pointer)).toContain("/rooms");

    const account = await call((await import("@/app/api/v1/account/listings/ref/[ref]/route")).GET, {
      path: "/account/listings/ref/crm-2",
      key,
      params: { ref: "crm-2" },
    });
    expect(account.json!.data.price).toBe(123456);
  });

  it("gives the same errors as a single call's 422, in the request's language", async () => {
    const { key } = await accountWithKey();
    const single = await call((await import("@/app/api/v1/listings/ref/[ref]/route")).PUT, {
      path: "/listings/ref/crm-9",
      method: "PUT",
      key,
      body: line("crm-9", { rooms: 99, title: "x" }),
      params: { ref: "crm-9" },
      headers: { "accept-language": "ro" },
    });
    const posted = await postImport(key, ndjson([line("crm-9", { rooms: 99, title: "x" })]));
    await runImports();
    const read = await getImport(key, posted.json!.data.id, "?locale=ro");
    expect(read.json!.data.results[0].errors).toEqual(single.json!.errors);
  });

  it("sent again, leaves every applied line unchanged", async () => {
    const { key } = await accountWithKey();
    const body = ndjson([line("again-1"), line("again-2")]);
    await postImport(key, body);
    await runImports();
    const second = await postImport(key, body);
    await runImports();
    const read = await getImport(key, second.json!.data.id);
    expect(read.json!.data.lines).toMatchObject({ unchanged: 2, created: 0 });
  });

  it("pages the results with limit and after", async () => {
    const { key } = await accountWithKey();
    const posted = await postImport(key, ndjson(Array.from({ length: 5 }, (_, i) => `bad ${i}`)));
    await runImports();
    const id = posted.json!.data.id;
    const first = await getImport(key, id, "?limit=2");
    expect(first.json!.data.results.map((r: { line: number }) => r.line)).toEqual([1, 2]);
    expect(first.json!.meta.next).toBe("2");
    const second = await getImport(key, id, "?limit=2&after=2");
    expect(second.json!.data.results.map((r: { line: number }) => r.line)).toEqual([3, 4]);
    const last = await getImport(key, id, "?limit=2&after=4");
    expect(last.json!.data.results.map((r: { line: number }) => r.line)).toEqual([5]);
    expect(last.json!.meta.next).toBeNull();
    expect((await getImport(key, id, "?limit=501")).status).toBe(422);
    expect((await getImport(key, id, "?after=x")).status).toBe(422);
  });

  it("answers 404 for another account's import and a malformed id, 401 without key, 403 without permission", async () => {
    const owner = await accountWithKey();
    const other = await accountWithKey();
    const posted = await postImport(owner.key, ndjson([line("mine-1")]));
    const id = posted.json!.data.id;
    expect((await getImport(other.key, id)).status).toBe(404);
    expect((await getImport(owner.key, "imp_nope")).status).toBe(404);
    expect((await getImport(undefined, id)).status).toBe(401);
    const writer = await accountWithKey({ permissions: ["listings:write"] });
    expect((await getImport(writer.key, id)).status).toBe(403);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    const refused = await postImport(reader.key, ndjson([line("x-1")]));
    expect(refused.status).toBe(403);
    expect(refused.json!.code).toBe("missing_ability");
    expect((await postImport(undefined, ndjson([line("x-1")]))).status).toBe(401);
    await runImports();
  });

  it("refuses a second import while one is queued (409 import_in_progress)", async () => {
    const { key } = await accountWithKey();
    const first = await postImport(key, ndjson([line("one-1")]));
    const second = await postImport(key, ndjson([line("two-1")]));
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ code: "import_in_progress" });
    expect(second.json!.detail).toContain(first.json!.data.id);
    await runImports();
    expect((await postImport(key, ndjson([line("two-1")]))).status).toBe(202);
    await runImports();
  });

  it("replays the same 202 for the same Idempotency-Key and body", async () => {
    const { key } = await accountWithKey();
    const body = ndjson([line("idem-1")]);
    const first = await postImport(key, body, { "idempotency-key": "import-1" });
    const again = await postImport(key, body, { "idempotency-key": "import-1" });
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json!.data.id).toBe(first.json!.data.id);
    const other = await postImport(key, ndjson([line("idem-2")]), { "idempotency-key": "import-1" });
    expect(other.json!.code).toBe("idempotency_key_reused");
    await runImports();
  });

  it("refuses hostile bodies with stable codes", async () => {
    const { key } = await accountWithKey();
    const tooMany = await postImport(key, "{}\n".repeat(maxImportLines + 1));
    expect(tooMany.status).toBe(413);
    expect(tooMany.json!.code).toBe("import_too_many_lines");
    expect((await postImport(key, "")).json!.code).toBe("import_empty");
    expect((await postImport(key, "\n \n")).json!.code).toBe("import_empty");
    const wrongType = await postImport(key, ndjson([line("t-1")]), { "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(wrongType.json!.code).toBe("unsupported_media_type");
    const huge = await postImport(key, "x".repeat(10 * 1024 * 1024 + 1));
    expect(huge.status).toBe(413);
    expect(huge.json!.code).toBe("payload_too_large");
    const badKey = await call((await import("@/app/api/v1/listings/imports/route")).POST, {
      path: "/listings/imports",
      method: "POST",
      key,
      body: { key: "upl_0000000000000000" },
    });
    expect(badKey.status).toBe(422);
    expect(badKey.json!.errors[0]).toMatchObject({ pointer: "/key", code: "invalid_value" });

    // A huge line is refused at its line; the others are applied.
    const posted = await postImport(key, ndjson([JSON.stringify({ external_ref: "h-1", title: "y".repeat(1_048_577) }), line("h-2")]));
    expect(posted.status).toBe(202);
    await runImports();
    const read = await getImport(key, posted.json!.data.id);
    expect(read.json!.data.results.map((r: { outcome: string; error_code: string | null }) => [r.outcome, r.error_code])).toEqual([
      ["refused", "payload_too_large"],
      ["created", null],
    ]);
  });

  it("is logged in the API log with the size of its NDJSON body (the lines stay with the import), and a refused one too", async () => {
    const { key } = await accountWithKey();
    const text = ndjson([line("log-1"), line("log-2"), "not json"]);
    const posted = await postImport(key, text);
    expect(posted.status).toBe(202);
    expect((await loggedRow(posted.headers.get("x-request-id")!)).requestBody).toEqual({
      ndjson: { bytes: Buffer.byteLength(text), lines: 3 },
    });
    const { POST } = await import("@/app/api/v1/listings/imports/route");
    const notUtf8 = await POST(
      new Request("http://localhost:3000/api/v1/listings/imports", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body: new Uint8Array([0xff, 0x0a]),
      }),
      { params: Promise.resolve({}) as never },
    );
    expect(notUtf8.status).toBe(400);
    expect((await loggedRow(notUtf8.headers.get("x-request-id")!)).requestBody).toEqual({ ndjson: { bytes: 2 } });
  });

  it("writes import.completed with the totals, readable in GET /events", async () => {
    const { key } = await accountWithKey();
    const posted = await postImport(key, ndjson([line("ev-1"), "nope"]));
    await runImports();
    await runImports();
    const events = await call(eventsRoute, { path: "/events", key });
    const completed = events.json!.data.filter((e: { type: string }) => e.type === "import.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toEqual({
      id: posted.json!.data.id,
      status: "completed",
      lines: { total: 2, done: 2, created: 1, updated: 0, unchanged: 0, refused: 1, stale: 0, withdrawn: 0 },
    });
  });
});

describe("POST /listings/imports with the key of an uploaded file", () => {
  useStorage("local");

  it("reads the lines from the stored file", async () => {
    const { key } = await accountWithKey();
    const bytes = new TextEncoder().encode(ndjson([line("up-1"), line("up-2")]));
    const grant = await requestUpload(key, bytes.byteLength);
    expect((await sendUpload(grant.url, bytes, { ...grant.headers, "Content-Length": String(bytes.byteLength) })).status).toBe(204);
    const posted = await call((await import("@/app/api/v1/listings/imports/route")).POST, {
      path: "/listings/imports",
      method: "POST",
      key,
      body: { key: grant.key },
    });
    expect(posted.status).toBe(202);
    expect((await loggedRow(posted.headers.get("x-request-id")!)).requestBody).toEqual({ key: grant.key });
    await runImportToEnd(posted.json!.data.id);
    const read = await getImport(key, posted.json!.data.id);
    expect(read.json!.data.lines).toMatchObject({ total: 2, created: 2 });

    const other = await accountWithKey();
    const foreign = await call((await import("@/app/api/v1/listings/imports/route")).POST, {
      path: "/listings/imports",
      method: "POST",
      key: other.key,
      body: { key: grant.key },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.json!.errors[0]).toMatchObject({ pointer: "/key", reason: "unknown_upload" });
  });
});

describe("processImport", () => {
  it("stops between transactions once past its budget, and the next run goes on where it stopped", async () => {
    const { key } = await accountWithKey();
    const posted = await postImport(key, ndjson([line("budget-1"), line("budget-2")]));
    const ctx = systemContext(await database());
    const input = { importId: posted.json!.data.id as string, renewLease: async () => true };
    expect(await processImport({ ctx, input: { ...input, budgetMs: -1 } })).toEqual({ status: "continue" });
    expect((await getImport(key, input.importId)).json!.data).toMatchObject({ status: "running", lines: { done: 0 } });
    expect(await processImport({ ctx, input: { ...input, budgetMs: 60_000 } })).toEqual({ status: "completed" });
    expect((await getImport(key, input.importId)).json!.data).toMatchObject({ status: "completed", lines: { done: 2, created: 2 } });
    expect(await processImport({ ctx, input: { ...input, budgetMs: 60_000 } })).toEqual({ status: "gone" });
    await runImports();
  });
});
