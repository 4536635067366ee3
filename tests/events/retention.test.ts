import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, type Database } from "@/db";
import { accounts, events, webhookDeliveries, webhooks } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { listEvents } from "@/lib/domain/events";
import {
  advanceEventPartitions,
  applyEventRetention,
  eventKeepDays,
  eventPartitionName,
  eventRangeOf,
  eventSeqSpan,
} from "@/lib/adapters/jobs/event-partitions";
import { operatorCtx } from "../support/fixtures";

/**
 * Events are partitioned by ranges of seq (migration 0020). Real time and the run's one sequence: on
 * PostgreSQL other test files share the table and write events meanwhile, so each test works in
 * ranges of its own, ahead of everyone's, and asserts only on its own account's events.
 */
const dayMs = 86_400_000;
const now = new Date();
const ago = (days: number) => new Date(now.getTime() - days * dayMs);

async function freshAccount(db: Database) {
  const id = newId("account");
  await db.connection.insert(accounts).values({ id, email: `${id}@example.com`, name: "E", passwordHash: "x" });
  return id;
}

const lastSeq = async (db: Database) =>
  Number((await db.rows<{ last: string }>(sql`select last_value as last from events_seq_seq`))[0].last);

/** Where each of the account's events is stored, by its `data.label`. */
async function placesOf(db: Database, account: string) {
  const rows = await db.rows<{ label: string; partition: string; seq: string }>(
    sql`select data->>'label' as label, tableoid::regclass::text as partition, seq from events where account_id = ${account} order by seq`,
  );
  return rows;
}

/** Moves the sequence to the start of `range` (never backwards), as the partitions job does when it closes one. */
const moveSequenceTo = (db: Database, range: number) =>
  db.rows(
    sql`select setval('events_seq_seq', ${range * eventSeqSpan}::bigint, false) from events_seq_seq where last_value < ${range * eventSeqSpan}::bigint`,
  );

const ensureRanges = (db: Database, first: number, last: number) =>
  db.rows(sql`select ensure_event_partitions(${eventSeqSpan}::bigint, ${first}::bigint, ${last}::bigint)`);

describe("event partitions", () => {
  it("close the current range once its oldest event is a week old: later events go to the next range, made ahead", async () => {
    const db = await database();
    const account = await freshAccount(db);
    await advanceEventPartitions(db, now);
    const before = eventRangeOf(await lastSeq(db));
    await db.connection
      .insert(events)
      .values({ accountId: account, type: "listing.sold", data: { label: "eight days" }, createdAt: ago(8) });

    expect(await advanceEventPartitions(db, now)).toMatchObject({ table: "events", closed: true });
    await db.connection.insert(events).values({ accountId: account, type: "listing.sold", data: { label: "after" }, createdAt: now });

    const [old, after] = await placesOf(db, account);
    expect(eventRangeOf(Number(old.seq))).toBe(before);
    expect(old.partition).toBe(eventPartitionName(before));
    expect(eventRangeOf(Number(after.seq))).toBeGreaterThan(before);
    expect(after.partition).toBe(eventPartitionName(eventRangeOf(Number(after.seq))));
    const [{ ahead }] = await db.rows<{ ahead: boolean }>(
      sql`select to_regclass(${eventPartitionName(eventRangeOf(await lastSeq(db)) + 1)}) is not null as ahead`,
    );
    expect(ahead).toBe(true);
  });

  it("answer GET /events in order across ranges and DEFAULT, page by page", async () => {
    const db = await database();
    const account = await freshAccount(db);
    const range = eventRangeOf(await lastSeq(db)) + 100;
    await ensureRanges(db, range, range + 1);
    // Two ranges of ours and, past them, a range with no partition: DEFAULT holds its event.
    const seqs = [range * eventSeqSpan + 1, range * eventSeqSpan + 2, (range + 1) * eventSeqSpan, (range + 5) * eventSeqSpan + 7];
    await db.connection
      .insert(events)
      .values(seqs.map((seq, n) => ({ seq, accountId: account, type: "listing.sold", data: { label: `e${n}` }, createdAt: now })));
    expect((await placesOf(db, account)).map((row) => row.partition)).toEqual([
      eventPartitionName(range),
      eventPartitionName(range),
      eventPartitionName(range + 1),
      "events_default",
    ]);

    const ctx = await operatorCtx();
    const labels: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await listEvents({ ctx, input: { accountId: account, limit: 1, after } });
      labels.push(...answer.data.map((event) => (event.data as { label: string }).label));
      if (answer.meta.next === null) break;
      after = answer.meta.next;
    }
    expect(labels).toEqual(["e0", "e1", "e2", "e3"]);
    await db.connection.delete(events).where(eq(events.accountId, account));
  });

  it("answer GET /events range by range when DEFAULT holds none of the account's events: pages across ranges and past a missing one", async () => {
    const db = await database();
    const account = await freshAccount(db);
    const range = eventRangeOf(await lastSeq(db)) + 200;
    await ensureRanges(db, range, range + 1);
    await ensureRanges(db, range + 3, range + 3);
    const seqs = [
      range * eventSeqSpan + 1,
      range * eventSeqSpan + 9,
      (range + 1) * eventSeqSpan + 5,
      (range + 3) * eventSeqSpan,
      (range + 3) * eventSeqSpan + 1,
    ];
    await db.connection
      .insert(events)
      .values(seqs.map((seq, n) => ({ seq, accountId: account, type: "listing.sold", data: { label: `e${n}` }, createdAt: now })));
    expect((await placesOf(db, account)).map((row) => row.partition)).not.toContain("events_default");

    const ctx = await operatorCtx();
    const read = async (limit: number) => {
      const pages: string[][] = [];
      let after: string | undefined;
      for (let page = 0; page < 6; page++) {
        const answer = await listEvents({ ctx, input: { accountId: account, limit, after } });
        pages.push(answer.data.map((event) => (event.data as { label: string }).label));
        if (answer.meta.next === null) break;
        after = answer.meta.next;
      }
      return pages;
    };
    expect(await read(2)).toEqual([["e0", "e1"], ["e2", "e3"], ["e4"]]);
    expect(await read(100)).toEqual([["e0", "e1", "e2", "e3", "e4"]]);
    await db.connection.delete(events).where(eq(events.accountId, account));
  });

  it("retention drops a closed range once its newest event is 35 days old, with its deliveries, and DEFAULT's old events one by one", async () => {
    const db = await database();
    const account = await freshAccount(db);
    const webhook = newId("webhook");
    await db.connection
      .insert(webhooks)
      .values({ id: webhook, accountId: account, url: "https://receiver.example/", eventTypes: ["*"], secretSealed: "x" });
    const range = eventRangeOf(await lastSeq(db)) + 200;
    await ensureRanges(db, range, range + 1);
    const rows = {
      // Range `range`: every event older than the limit; range + 1: one just younger keeps the range.
      wholeRangeOld: { seq: range * eventSeqSpan + 1, createdAt: ago(43) },
      wholeRangeOlder: { seq: range * eventSeqSpan + 2, createdAt: ago(50) },
      keptOld: { seq: (range + 1) * eventSeqSpan + 1, createdAt: ago(60) },
      justKept: { seq: (range + 1) * eventSeqSpan + 2, createdAt: new Date(now.getTime() - eventKeepDays * dayMs + 60_000) },
      // Beyond every partition: DEFAULT.
      defaultOld: { seq: (range + 9) * eventSeqSpan + 1, createdAt: ago(36) },
      defaultFresh: { seq: (range + 9) * eventSeqSpan + 2, createdAt: now },
    };
    await db.connection
      .insert(events)
      .values(Object.entries(rows).map(([label, row]) => ({ ...row, accountId: account, type: "listing.sold", data: { label } })));
    const delivered = [rows.wholeRangeOld.seq, rows.justKept.seq];
    await db.connection
      .insert(webhookDeliveries)
      .values(delivered.map((eventSeq) => ({ id: newId("webhookDelivery"), webhookId: webhook, eventSeq, createdAt: ago(1) })));
    // Both ranges closed: the sequence has moved past them into a range made ahead, as the job makes the
    // next range before the sequence reaches it. Moved into a range without its partition, the other
    // files' events would go to DEFAULT meanwhile, and one written while the job attached that range
    // would fail PostgreSQL's check of DEFAULT's constraint (23514).
    await ensureRanges(db, range + 2, range + 3);
    await moveSequenceTo(db, range + 2);
    await advanceEventPartitions(db, now);

    const result = await applyEventRetention(db, now);

    expect(result.partitions).toContain(eventPartitionName(range));
    expect(result.partitions).not.toContain(eventPartitionName(range + 1));
    expect((await placesOf(db, account)).map((row) => row.label)).toEqual(["keptOld", "justKept", "defaultFresh"]);
    const deliveries = await db.connection
      .select({ eventSeq: webhookDeliveries.eventSeq })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook));
    expect(deliveries.map((row) => Number(row.eventSeq))).toEqual([rows.justKept.seq]);
    // The current range is never dropped, whatever its events' age.
    const current = eventPartitionName(eventRangeOf(await lastSeq(db)));
    expect(result.partitions).not.toContain(current);
    await db.connection.delete(events).where(eq(events.accountId, account));
  });
});
