import type { ChildProcess } from "node:child_process";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, configureDatabase, database } from "@/db";
import { events, listingImportLines, listingImports, listings } from "@/db/schema";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { databaseSettings } from "@/lib/base/config";
import { accountWithKey } from "../support/fixtures";
import { activeListing, validApartment } from "../support/listings";
import { ndjson, postImport } from "../imports/support";
import { reachEnv, reachSettings } from "../support/run-database";
import { onPostgresRun } from "../support/engine";
import { jobWorkers } from "./support/job-worker-process";

/**
 * The server killed (SIGKILL) in the middle of a bulk import, then restarted: the import completes
 * with every line applied exactly once. The "server" is `job-worker.ts` (for `listings.import`), a child process running
 * the embedded runner's passes over the import job on a throwaway PostgreSQL database. The restarted
 * child's clock runs 50 seconds ahead: past the dead one's job lease (45 s from its claim or its last
 * renewal, both before the kill), so the import resumes within a minute of the restart, where the
 * default job lease (10 minutes) would keep it waiting, and no further. Some lines confirm
 * unconfirmed listings, which writes `listing.published`: each must be written once. A full import
 * killed while it withdraws the listings its file lacks withdraws each of them once when restarted,
 * none lost, and none of another account's. PostgreSQL only
 * (two processes cannot share a PGlite folder): `npm run test:pg` runs it.
 */

const inventorySize = 2000;
const keptByFullImport = 200;

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const workers = jobWorkers("listings.import");
const lineCount = 3000;
const confirmed = 20;

if (!onPostgresRun) console.info("Import kill test skipped: it runs on PostgreSQL, with npm run test:pg");

const fileSettings = () => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE });

let throwaway: ThrowawayDatabase | undefined;

beforeAll(async () => {
  if (!onPostgresRun) return;
  throwaway = await createThrowawayDatabase(adminUrl, "test_import_kill");
  await closeDatabase();
  configureDatabase(() => ({ ...reachSettings(throwaway!.url), dataDir: "memory://" }));
});

afterAll(async () => {
  workers.killAll();
  if (!onPostgresRun) return;
  await closeDatabase();
  configureDatabase(fileSettings);
  await throwaway?.drop();
});

async function startWorker(offsetMs: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...reachEnv(throwaway!.url), WORKER_OFFSET_MS: String(offsetMs) };
  delete env.PGLITE_TEMPLATE;
  return workers.start(env);
}

async function until(check: () => Promise<boolean>, timeoutMs: number, everyMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return false;
}

describe.skipIf(!onPostgresRun)("bulk import killed and restarted (PostgreSQL)", () => {
  it("completes after the server is killed mid-import, every line applied once", { timeout: 180_000 }, async () => {
    const { key, account } = await accountWithKey();
    const db = (await database()).connection;
    // Listings the import confirms again: unconfirmed ones, which a write through the API publishes.
    const refs = Array.from({ length: confirmed }, (_, i) => `kill-confirm-${i}`);
    for (const ref of refs) await activeListing(key, validApartment({ external_ref: ref }));
    await db.update(listings).set({ status: "unconfirmed" }).where(inArray(listings.externalRef, refs));
    const lines = Array.from({ length: lineCount }, (_, i) =>
      i % 150 === 0 ? { external_ref: refs[i / 150], price: 150000 + i } : validApartment({ external_ref: `kill-${i}` }),
    );
    const posted = await postImport(key, ndjson(lines));
    expect(posted.status).toBe(202);
    const id = posted.json!.data.id as string;
    const applied = async () => {
      const [row] = await db.select({ n: count() }).from(listingImportLines).where(eq(listingImportLines.importId, id));
      return row.n;
    };

    const first = await startWorker(0);
    expect(await until(async () => (await applied()) >= 300, 60_000, 10)).toBe(true);
    await workers.killed(first);
    const atKill = await applied();
    expect(atKill).toBeLessThan(lineCount);

    const second = await startWorker(50_000);
    const completed = async () => {
      const [row] = await db.select({ status: listingImports.status }).from(listingImports).where(eq(listingImports.id, id));
      return row.status === "completed";
    };
    expect(await until(completed, 120_000, 200)).toBe(true);
    await workers.killed(second);

    expect(await applied()).toBe(lineCount);
    const [owned] = await db.select({ n: count() }).from(listings).where(eq(listings.accountId, account.id));
    // One listing per ref: the lines created the others, the confirmed ones existed already.
    expect(owned.n).toBe(lineCount);
    const typed = async (type: string) =>
      (
        await db
          .select()
          .from(events)
          .where(and(eq(events.accountId, account.id), eq(events.type, type)))
      ).map((e) => e.data);
    expect(await typed("listing.published")).toHaveLength(confirmed * 2);
    const done = await typed("import.completed");
    expect(done).toEqual([
      {
        id,
        status: "completed",
        lines: {
          total: lineCount,
          done: lineCount,
          created: lineCount - confirmed,
          updated: confirmed,
          unchanged: 0,
          refused: 0,
          stale: 0,
          withdrawn: 0,
        },
      },
    ]);
  });
  it(
    "withdraws each listing a full import's file lacks once after the server is killed mid-withdrawal, none lost",
    { timeout: 240_000 },
    async () => {
      const { key, account } = await accountWithKey();
      const other = await accountWithKey();
      const db = (await database()).connection;
      const refs = Array.from({ length: inventorySize }, (_, i) => `sync-${i}`);
      const kept = refs.slice(0, keptByFullImport);
      const absent = refs.slice(keptByFullImport);
      const ended = async (id: string) => {
        const [row] = await db.select({ status: listingImports.status }).from(listingImports).where(eq(listingImports.id, id));
        return row.status === "completed";
      };
      const worker = await startWorker(0);
      // The inventory: one import of every ref for the account, a few of the same refs for another
      // account, all made active at once (moderation approves listings elsewhere).
      for (const [owner, owned] of [
        [key, refs],
        [other.key, absent.slice(0, 20)],
      ] as const) {
        const posted = await postImport(owner, ndjson(owned.map((ref) => validApartment({ external_ref: ref }))));
        expect(await until(() => ended(posted.json!.data.id), 120_000, 100)).toBe(true);
      }
      await db
        .update(listings)
        .set({ status: "active" })
        .where(inArray(listings.accountId, [account.id, other.account.id]));

      const posted = await postImport(
        key,
        ndjson(kept.map((ref) => validApartment({ external_ref: ref }))),
        {},
        `?mode=full&max_withdrawals=${absent.length}`,
      );
      expect(posted.status).toBe(202);
      const id = posted.json!.data.id as string;
      const withdrawnRows = () =>
        db
          .select({ ref: listingImportLines.externalRef, code: listingImportLines.listingCode })
          .from(listingImportLines)
          .where(and(eq(listingImportLines.importId, id), eq(listingImportLines.outcome, "withdrawn")));
      expect(await until(async () => (await withdrawnRows()).length >= 100, 60_000, 10)).toBe(true);
      await workers.killed(worker);
      const atKill = (await withdrawnRows()).length;
      expect(atKill).toBeLessThan(absent.length);

      const restarted = await startWorker(50_000);
      expect(await until(() => ended(id), 120_000, 200)).toBe(true);
      await workers.killed(restarted);

      const withdrawn = await withdrawnRows();
      expect(withdrawn).toHaveLength(absent.length);
      expect(new Set(withdrawn.map((row) => row.ref))).toEqual(new Set(absent));
      const statusOf = async (accountId: string) =>
        Object.fromEntries(
          (
            await db.select({ ref: listings.externalRef, status: listings.status }).from(listings).where(eq(listings.accountId, accountId))
          ).map((row) => [row.ref, row.status]),
        );
      const mine = await statusOf(account.id);
      expect(kept.filter((ref) => mine[ref] !== "active")).toEqual([]);
      expect(absent.filter((ref) => mine[ref] !== "paused")).toEqual([]);
      expect(Object.values(await statusOf(other.account.id))).toEqual(Array(20).fill("active"));

      const typed = async (accountId: string, type: string) =>
        (
          await db
            .select()
            .from(events)
            .where(and(eq(events.accountId, accountId), eq(events.type, type)))
        ).map((e) => e.data as { code?: string; status?: string });
      const paused = await typed(account.id, "listing.paused");
      expect(paused).toHaveLength(absent.length);
      expect(new Set(paused.map((data) => data.code))).toEqual(new Set(withdrawn.map((row) => row.code)));
      expect(await typed(other.account.id, "listing.paused")).toEqual([]);
      // The inventory's import and the full one, each ended once.
      const completed = (await typed(account.id, "import.completed")) as { id: string }[];
      expect(completed).toHaveLength(2);
      expect(completed.find((data) => data.id === id)).toEqual({
        id,
        status: "completed",
        lines: {
          total: kept.length,
          done: kept.length,
          created: 0,
          updated: 0,
          unchanged: kept.length,
          refused: 0,
          stale: 0,
          withdrawn: absent.length,
        },
      });
    },
  );
});
