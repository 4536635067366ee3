import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiKeys, events, listingImports, listings } from "@/db/schema";
import { systemContext } from "@/lib/base/context";
import { processImport } from "@/lib/domain/imports/process-import";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { createKey } from "@/lib/domain/keys/create-key";
import { ownDatabaseOnPostgres } from "../support/child-database";
import { createdKeys } from "../support/created-keys";
import { accountWithKey, operatorCtx } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { cancelImport, getImport, ndjson, postImport, runImports } from "./support";

// These tests run an import's job themselves: on PostgreSQL, a database of their own keeps other
// files' runners (which run every due import job) from taking their imports up meanwhile.
ownDatabaseOnPostgres("test_import_endings");

const lanes = 4;

/** 1 000 lines, 8 of them listings to create, the others refused at once (not JSON): about 250 a lane, three transactions each. */
const importLines = (prefix: string) =>
  ndjson(Array.from({ length: 1000 }, (_, i) => (i % 125 === 0 ? validApartment({ external_ref: `${prefix}-${i}` }) : "{not json")));

/**
 * Runs the import's job as the runner would, doing `between` once every lane has committed its first
 * transaction of lines and asks to renew its lease before the next: the lanes wait for each other
 * there (on PostgreSQL they run at once), so `between` happens between two batches of each.
 */
async function runWith(importId: string, between: () => Promise<void>) {
  let calls = 0;
  let release: () => void = () => {};
  const allWaiting = new Promise<void>((resolve) => (release = resolve));
  const renewLease = async () => {
    if (++calls <= lanes) return true;
    if (calls === 2 * lanes) await between().then(release);
    await allWaiting;
    return true;
  };
  return processImport({ ctx: systemContext(await database()), input: { importId, budgetMs: 60_000, renewLease } });
}

async function importEvents(accountId: string) {
  const db = (await database()).connection;
  const rows = await db
    .select({ data: events.data })
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, "import.completed")));
  return rows.map((row) => row.data);
}

const listingCount = async (accountId: string) =>
  (await (await database()).connection.select({ n: count() }).from(listings).where(eq(listings.accountId, accountId)))[0].n;

describe("an import whose key may write no more", () => {
  it("stops at the next batch once the key is revoked: failed, key_revoked, the lines applied before kept", async () => {
    const { key, keyId, account } = await accountWithKey();
    // Another key of the account, which reads the outcome (events reach an account that has a key).
    const other = await createKey({
      ctx: await operatorCtx(),
      input: { accountId: account.id, name: "other key", permissions: ["listings:read"], days: 30 },
    });
    createdKeys.push(other.key);
    const id = (await postImport(key, importLines("revoked"))).json!.data.id as string;
    const outcome = await runWith(id, async () => {
      await revokeAnyKey({ ctx: systemContext(await database()), input: { id: keyId } });
    });
    expect(outcome).toEqual({ status: "failed" });
    const [ended] = await (await database()).connection.select().from(listingImports).where(eq(listingImports.id, id));
    expect(ended).toMatchObject({ status: "failed", errorCode: "key_revoked", completedAt: expect.any(Date) });
    const lines = {
      total: 1000,
      done: lanes * 100,
      created: expect.any(Number),
      updated: 0,
      unchanged: 0,
      refused: expect.any(Number),
      stale: 0,
      withdrawn: 0,
    };
    expect(await importEvents(account.id)).toEqual([{ id, status: "failed", error_code: "key_revoked", lines }]);
    const [event] = (await importEvents(account.id)) as { lines: { created: number } }[];
    expect(await listingCount(account.id)).toBe(event.lines.created);
    // Nothing is left to run; the import keeps its outcome.
    await runImports();
    const read = await getImport(other.key, id);
    expect(read.json!.data).toMatchObject({ status: "failed", error_code: "key_revoked", lines: { done: lanes * 100 } });
  });

  it("ends key_expired when the key expired meanwhile", async () => {
    const { key, keyId } = await accountWithKey();
    const id = (await postImport(key, importLines("expired"))).json!.data.id as string;
    const outcome = await runWith(id, async () => {
      await (
        await database()
      ).connection
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, keyId));
    });
    expect(outcome).toEqual({ status: "failed" });
    const [ended] = await (await database()).connection.select().from(listingImports).where(eq(listingImports.id, id));
    expect(ended).toMatchObject({ status: "failed", errorCode: "key_expired" });
  });
});

describe("DELETE /listings/imports/{id}", () => {
  it("cancels a running import: no line applied after the answer, those before reported, import.completed once", async () => {
    const { key, account } = await accountWithKey();
    const id = (await postImport(key, importLines("cancel"))).json!.data.id as string;
    let answer: Awaited<ReturnType<typeof cancelImport>> | undefined;
    const outcome = await runWith(id, async () => {
      answer = await cancelImport(key, id);
    });
    expect(outcome).toEqual({ status: "gone" });
    expect(answer!.status).toBe(200);
    expect(answer!.json!.data).toMatchObject({ id, status: "cancelled", error_code: null, lines: { total: 1000, done: lanes * 100 } });
    expect(answer!.json!.data.results).toHaveLength(100);
    const read = await getImport(key, id);
    expect(read.json!.data.lines).toEqual(answer!.json!.data.lines);
    expect(await importEvents(account.id)).toEqual([{ id, status: "cancelled", lines: answer!.json!.data.lines }]);
    expect(await listingCount(account.id)).toBe(answer!.json!.data.lines.created);

    const again = await cancelImport(key, id);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: "import_ended" });
    expect(again.json!.detail).toContain("cancelled");
    // The account may send its next import at once.
    expect((await postImport(key, ndjson([validApartment({ external_ref: "after-cancel" })]))).status).toBe(202);
    await runImports();
  });

  it("cancels a queued import before any line", async () => {
    const { key } = await accountWithKey();
    const id = (await postImport(key, ndjson([validApartment({ external_ref: "queued-1" })]))).json!.data.id as string;
    const cancelled = await cancelImport(key, id);
    expect(cancelled.json!.data).toMatchObject({ status: "cancelled", lines: { done: 0 }, results: [] });
    await runImports();
    expect((await getImport(key, id)).json!.data).toMatchObject({ status: "cancelled", lines: { done: 0 } });
  });

  it("answers 404 for another account's or a missing import, 409 for a completed one, 401 and 403 without key or permission", async () => {
    const owner = await accountWithKey();
    const other = await accountWithKey();
    const id = (await postImport(owner.key, ndjson([validApartment({ external_ref: "owned-1" })]))).json!.data.id as string;
    expect((await cancelImport(other.key, id)).status).toBe(404);
    expect((await cancelImport(owner.key, "imp_0000000000000000")).status).toBe(404);
    expect((await cancelImport(undefined, id)).status).toBe(401);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    const refused = await cancelImport(reader.key, id);
    expect(refused.status).toBe(403);
    expect(refused.json!.code).toBe("missing_ability");
    await runImports();
    const late = await cancelImport(owner.key, id);
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ code: "import_ended" });
    expect((await getImport(owner.key, id)).json!.data.status).toBe("completed");
  });
});
