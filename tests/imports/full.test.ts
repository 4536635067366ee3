import { describe, expect, it } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/listings/[code]/pause/route";
import { GET as readByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { GET as readByCode } from "@/app/api/v1/account/listings/[code]/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { and, eq } from "drizzle-orm";
import { database } from "@/db";
import { jobs, listingImportLines, listings } from "@/db/schema";
import { systemContext } from "@/lib/base/context";
import { processImport } from "@/lib/domain/imports/process-import";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing, validApartment } from "../support/listings";
import { getImport, ndjson, postImport, runImportToEnd, runImports } from "./support";

const line = (ref: string, overrides: Record<string, unknown> = {}) => validApartment({ external_ref: ref, ...overrides });

const status = async (key: string, ref: string) =>
  (await call(readByRef, { path: `/account/listings/ref/${ref}`, key, params: { ref } })).json!.data.status as string;

async function inventory(key: string, refs: string[]) {
  const codes: Record<string, string> = {};
  for (const ref of refs) codes[ref] = (await activeListing(key, line(ref))).code;
  return codes;
}

/** A full import of the lines (a ref alone stands for the listing's body unchanged), run to its end. */
async function fullImport(key: string, lines: (string | Record<string, unknown>)[], query = "") {
  const posted = await call((await import("@/app/api/v1/listings/imports/route")).POST, {
    path: `/listings/imports?mode=full${query}`,
    method: "POST",
    key,
    rawBody: ndjson(lines.map((given) => (typeof given === "string" ? line(given) : given))),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(posted.status).toBe(202);
  await runImportToEnd(posted.json!.data.id);
  return (await getImport(key, posted.json!.data.id)).json!.data;
}

describe("POST /listings/imports?mode=full", () => {
  it("withdraws the active listings whose ref the file lacks, with listing.paused, and reports them", async () => {
    const { key } = await accountWithKey();
    const codes = await inventory(key, ["f-1", "f-2", "f-3", "f-4"]);
    const data = await fullImport(key, ["f-1", "f-2", "f-3"]);
    expect(data).toMatchObject({ status: "completed", mode: "full", error: null });
    expect(data.lines).toMatchObject({ total: 3, done: 3, unchanged: 3, withdrawn: 1 });
    expect(data.results.at(-1)).toEqual({
      line: null,
      external_ref: "f-4",
      code: codes["f-4"],
      outcome: "withdrawn",
      error_code: null,
      detail: null,
      errors: [],
    });
    expect(await status(key, "f-4")).toBe("paused");
    expect(await status(key, "f-1")).toBe("active");
    const events = (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: { code: string } }[];
    expect(events.filter((e) => e.type === "listing.paused").map((e) => e.data.code)).toEqual([codes["f-4"]]);
  });

  it("resumes a listing a full import withdrew when a later one holds its ref again; one paused by hand stays paused", async () => {
    const { key } = await accountWithKey();
    const codes = await inventory(key, ["g-1", "g-2", "g-3", "g-4"]);
    await call(pauseRoute, { path: `/listings/${codes["g-2"]}/pause`, method: "POST", key, params: { code: codes["g-2"] } });
    expect(await status(key, "g-2")).toBe("paused");
    await fullImport(key, ["g-1", "g-2", "g-3"]);
    expect(await status(key, "g-4")).toBe("paused");

    const again = await fullImport(key, ["g-1", "g-2", "g-3", "g-4"]);
    expect(again.lines).toMatchObject({ withdrawn: 0, updated: 1, unchanged: 3 });
    expect(again.results.find((r: { external_ref: string }) => r.external_ref === "g-4")).toMatchObject({ outcome: "updated" });
    expect(await status(key, "g-4")).toBe("active");
    expect(await status(key, "g-2")).toBe("paused");
    const events = (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: { code: string } }[];
    expect(events.filter((e) => e.type === "listing.reactivated").map((e) => e.data.code)).toEqual([codes["g-4"]]);
  });

  it("withdraws only the account's own active listings with a ref: not another account's, a pending one or one without a ref", async () => {
    const { key } = await accountWithKey();
    const other = await accountWithKey();
    const codes = await inventory(key, ["s-1", "s-2", "s-3", "s-4"]);
    const otherCodes = await inventory(other.key, ["s-3", "s-4", "t-1"]);
    const pending = await createListing(key, line("s-5"));
    const withoutRef = await activeListing(key, validApartment());
    // The default cap: half of the 4 active listings with a ref, so 2, and the file lacks exactly 2 of them.
    const data = await fullImport(key, ["s-1", "s-2"]);
    expect(data).toMatchObject({ status: "completed", lines: { total: 2, done: 2, withdrawn: 2 } });
    const withdrawn = data.results.filter((r: { outcome: string }) => r.outcome === "withdrawn");
    expect(withdrawn.map((r: { code: string }) => r.code).sort()).toEqual([codes["s-3"], codes["s-4"]].sort());
    expect(await status(key, "s-5")).toBe("pending");
    const byCode = async (owner: string, code: string) =>
      (await call(readByCode, { path: `/account/listings/${code}`, key: owner, params: { code } })).json!.data.status;
    expect(await byCode(key, withoutRef.code)).toBe("active");
    expect(await byCode(key, pending.code)).toBe("pending");
    for (const code of Object.values(otherCodes)) expect(await byCode(other.key, code)).toBe("active");
    const otherEvents = (await call(eventsRoute, { path: "/events", key: other.key })).json!.data as { type: string }[];
    expect(otherEvents.filter((e) => e.type === "listing.paused" || e.type === "import.completed")).toEqual([]);
  });

  it("refuses a mode or a max_withdrawals it does not know at the query parameter, queuing nothing", async () => {
    const { key } = await accountWithKey();
    const { POST } = await import("@/app/api/v1/listings/imports/route");
    for (const [query, pointer] of [
      ["mode=mirror", "/mode"],
      ["mode=full&max_withdrawals=-1", "/max_withdrawals"],
      ["mode=full&max_withdrawals=1.5", "/max_withdrawals"],
    ]) {
      const res = await call(POST, {
        path: `/listings/imports?${query}`,
        method: "POST",
        key,
        rawBody: ndjson([line("q-1")]),
        headers: { "content-type": "application/x-ndjson" },
      });
      expect(res.status, query).toBe(422);
      expect(res.json!.errors).toEqual([expect.objectContaining({ pointer, in: "query" })]);
    }
    await runImports();
    expect((await call(readByRef, { path: "/account/listings/ref/q-1", key, params: { ref: "q-1" } })).status).toBe(404);
  });

  it("applies at its cap and refuses one more, writing nothing: no line applied, nothing withdrawn", async () => {
    const { key } = await accountWithKey();
    await inventory(key, ["c-1", "c-2", "c-3", "c-4", "c-5"]);
    // The default cap: half of the 5 active listings with a ref, rounded down, so 2.
    const refused = await fullImport(key, [line("c-1", { price: 123_456 }), "c-2", "c-6"]);
    expect(refused).toMatchObject({ status: "refused", error: { code: "too_many_withdrawals", withdrawals: 3, limit: 2 } });
    expect(refused.lines).toMatchObject({ done: 0, withdrawn: 0 });
    expect(refused.results).toEqual([]);
    for (const ref of ["c-3", "c-4", "c-5"]) expect(await status(key, ref)).toBe("active");
    expect((await call(readByRef, { path: "/account/listings/ref/c-6", key, params: { ref: "c-6" } })).status).toBe(404);
    const c1 = (await call(readByRef, { path: "/account/listings/ref/c-1", key, params: { ref: "c-1" } })).json!.data;
    expect(c1.price).toBe(validApartment().price);
    expect(c1.moderation).toMatchObject({ edit_pending: false });
    const endings = (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: Record<string, unknown> }[];
    expect(endings.filter((e) => e.type === "import.completed").map((e) => e.data)).toEqual([
      expect.objectContaining({ status: "refused", error: { code: "too_many_withdrawals", withdrawals: 3, limit: 2 } }),
    ]);

    const limitPlusOne = await fullImport(key, ["c-1", "c-2", "c-3"], "&max_withdrawals=1");
    expect(limitPlusOne).toMatchObject({ status: "refused", error: { code: "too_many_withdrawals", withdrawals: 2, limit: 1 } });
    expect(await status(key, "c-4")).toBe("active");
    const atLimit = await fullImport(key, ["c-1", "c-2", "c-3"], "&max_withdrawals=2");
    expect(atLimit).toMatchObject({ status: "completed", lines: { withdrawn: 2 } });
    expect(await status(key, "c-4")).toBe("paused");
    expect(await status(key, "c-5")).toBe("paused");
  });

  it("stopped mid-withdrawal and run again, withdraws each listing once and none is lost", async () => {
    const { account, key } = await accountWithKey();
    const refs = Array.from({ length: 112 }, (_, i) => `k-${String(i).padStart(3, "0")}`);
    await runImportToEnd((await postImport(key, ndjson(refs.map((ref) => line(ref))))).json!.data.id);
    // The inventory made active at once (moderation approves each listing elsewhere).
    const opened = await database();
    const db = opened.connection;
    await db.update(listings).set({ status: "active" }).where(eq(listings.accountId, account.id));

    const posted = await call((await import("@/app/api/v1/listings/imports/route")).POST, {
      path: "/listings/imports?mode=full&max_withdrawals=110",
      method: "POST",
      key,
      rawBody: ndjson(refs.slice(0, 2).map((ref) => line(ref))),
      headers: { "content-type": "application/x-ndjson" },
    });
    const importId = posted.json!.data.id as string;
    // This test runs the import itself: its job is taken out of the queue, where another file's pass
    // on a shared database could claim it.
    await db.delete(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.status, "queued")));
    const ctx = systemContext(opened);
    // The run loses its job once its first transaction of withdrawals has committed, as a killed one would.
    const withdrawnSoFar = async () =>
      (await db.select().from(listingImportLines).where(eq(listingImportLines.importId, importId))).filter(
        (row) => row.outcome === "withdrawn",
      ).length;
    const first = await processImport({
      ctx,
      input: { importId, budgetMs: 60_000, renewLease: async () => (await withdrawnSoFar()) === 0 },
    });
    expect(first).toEqual({ status: "lost" });
    expect(await withdrawnSoFar()).toBe(100);
    expect(await processImport({ ctx, input: { importId, budgetMs: 60_000, renewLease: async () => true } })).toEqual({
      status: "completed",
    });

    const data = (await getImport(key, importId, "?limit=500")).json!.data;
    expect(data.lines).toMatchObject({ total: 2, done: 2, withdrawn: 110 });
    const withdrawn = data.results.filter((r: { outcome: string }) => r.outcome === "withdrawn");
    expect(new Set(withdrawn.map((r: { external_ref: string }) => r.external_ref))).toEqual(new Set(refs.slice(2)));
    const paused = await db
      .select()
      .from(listings)
      .where(and(eq(listings.accountId, account.id), eq(listings.status, "paused")));
    expect(paused).toHaveLength(110);
    const events = (await call(eventsRoute, { path: "/events?limit=500", key })).json!.data as { type: string }[];
    expect(events.filter((e) => e.type === "listing.paused")).toHaveLength(110);
  });
});
