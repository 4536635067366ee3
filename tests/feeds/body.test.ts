import { and, eq } from "drizzle-orm";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { jobs, listingImportLines, listingImports } from "@/db/schema";
import { resetConfig } from "@/lib/base/config";
import { systemContext } from "@/lib/base/context";
import { processImport } from "@/lib/domain/imports/process-import";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { accountWithKey } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { cancelImport, getImport, ndjson, postImport, runImportToEnd } from "../imports/support";
import { feedAt, pullAt } from "./support";

const files = new Map<string, string>();
let server: LocalServer;

beforeAll(async () => {
  vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
  resetConfig();
  server = await startHttpServer((request, res: http.ServerResponse) => {
    const body = files.get(request.url);
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/x-ndjson", etag: `"${body.length}"` }).end(body);
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfig();
  await server.close();
});

let served = 0;
const serve = (body: string) => {
  const path = `/body-${++served}.ndjson`;
  files.set(path, body);
  return `${server.origin}${path}`;
};

const file = (refs: string[]) => ndjson(refs.map((ref) => validApartment({ external_ref: ref })));

async function importRow(id: string) {
  const [row] = await (await database()).connection.select().from(listingImports).where(eq(listingImports.id, id));
  return row;
}

/** A pull of a feed serving `body`; the id of the import it started. */
async function feedImport(key: string, body: string): Promise<string> {
  const pulled = await pullAt(await feedAt(key, serve(body)));
  expect(pulled.outcome).toBe("changed");
  return pulled.importId!;
}

describe("a feed import's body", () => {
  it("is cleared when the import completes; one sent to POST /listings/imports keeps its body", async () => {
    const { key } = await accountWithKey();
    const fromFeed = await feedImport(key, file(["bd-1", "bd-2"]));
    expect((await importRow(fromFeed)).body).toBe(file(["bd-1", "bd-2"]));
    await runImportToEnd(fromFeed);
    expect(await importRow(fromFeed)).toMatchObject({ status: "completed", body: null });
    // Its report stays whole.
    const report = (await getImport(key, fromFeed)).json!.data;
    expect(report).toMatchObject({ status: "completed", lines: { total: 2, created: 2 } });
    expect(report.results).toHaveLength(2);

    const sent = await postImport(key, file(["bd-3"]));
    await runImportToEnd(sent.json!.data.id);
    expect(await importRow(sent.json!.data.id)).toMatchObject({ status: "completed", body: file(["bd-3"]) });
  });

  it("is cleared however the import ends: cancelled too", async () => {
    const { key } = await accountWithKey();
    const fromFeed = await feedImport(key, file(["bc-1"]));
    expect((await cancelImport(key, fromFeed)).status).toBe(200);
    expect(await importRow(fromFeed)).toMatchObject({ status: "cancelled", body: null });
  });

  it("stays while a run that died mid-way is resumed, and goes once the resumed run ends", async () => {
    const { key, account } = await accountWithKey();
    const refs = Array.from({ length: 150 }, (_, i) => `br-${i}`);
    const importId = await feedImport(key, file(refs));
    const opened = await database();
    const db = opened.connection;
    // This test runs the import itself: its job is taken out of the queue, where another file's pass
    // on a shared database could claim it.
    await db.delete(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.status, "queued")));
    const ctx = systemContext(opened);
    const applied = async () => (await db.select().from(listingImportLines).where(eq(listingImportLines.importId, importId))).length;
    // The run keeps its job for one transaction only, then loses it, as a killed one would.
    let renewals = 0;
    const first = await processImport({ ctx, input: { importId, budgetMs: 60_000, renewLease: async () => ++renewals === 1 } });
    expect(first).toEqual({ status: "lost" });
    const midway = await applied();
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(150);
    expect(await importRow(importId)).toMatchObject({ status: "running", body: file(refs) });

    expect(await processImport({ ctx, input: { importId, budgetMs: 60_000, renewLease: async () => true } })).toEqual({
      status: "completed",
    });
    expect(await applied()).toBe(150);
    expect(await importRow(importId)).toMatchObject({ status: "completed", body: null });
    expect((await getImport(key, importId)).json!.data.lines).toMatchObject({ total: 150, done: 150, created: 150 });
  });
});
