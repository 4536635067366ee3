import { and, asc, eq, lt, lte, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { WithSubqueryWithSelection } from "drizzle-orm/pg-core";
import type { Handle } from "@/db";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import { eventBody } from "@/lib/domain/events/types";
import type { ClaimedDelivery } from "../outcomes";
import { signingSecretOf } from "../webhook-signing-secret";
import { deliveryLeaseSeconds, maxDeliveryAttempts } from "./schedule";

/**
 * The delivery queue: `webhook_deliveries` is its own job table (its life cycle: `deliver.ts`).
 * Here: what due means, the claim's update (`claims.ts` chooses what it claims), the give-back of
 * claims never attempted, and the reads of one delivery's state and of due times.
 */

const d = webhookDeliveries;
const w = webhooks;

/** A moment in a statement: a value, or the placeholder of a statement built once (the lane's hand-off, `claims.ts`). */
export const momentOf = (at: Date | Placeholder): SQL => sql`${at instanceof Date ? at.toISOString() : at}::timestamptz`;

/** A JSON array in a statement, as `jsonb`: a value, or a placeholder. */
export const jsonbOf = (json: string | Placeholder): SQL => sql`${json}::jsonb`;

const leaseEnd = (now: SQL) => sql`${now} + ${sql.raw(`interval '${deliveryLeaseSeconds} seconds'`)}`;

/**
 * Not finished, written as the due index's predicate (literals, not parameters): PostgreSQL uses a
 * partial index only when it can prove the query implies its predicate, also in a generic plan.
 */
const unfinished = sql`${d.status} in ('pending', 'delivering')`;
export const inFlightNow = sql`${d.status} = 'delivering'`;

/** Due: pending and its time has come, or delivering with an ended lease (`next_attempt_at` holds the lease's end). */
export const dueAt = (now: Date | SQL) => and(unfinished, lte(d.nextAttemptAt, now));

/**
 * The status of a row already found by primary key, checked again, written so that PostgreSQL cannot
 * match it to the partial indexes' predicates. Those indexes keep an entry for every row that was ever
 * due or in flight until vacuum removes it, and a bitmap scan reads them all: in a drain of 3 000
 * deliveries the planner ANDed the in-flight index (8 484 entries) with the primary key to find the 13
 * rows an outcome wrote, 4.4 ms of a 6.2 ms statement.
 */
const statusOfFound = sql`(${d.status} || '')`;

/** `dueAt` for a row found by primary key. */
const stillDueAt = (now: SQL) => and(sql`${statusOfFound} in ('pending', 'delivering')`, lte(d.nextAttemptAt, now));

/**
 * The deliveries of the recordset `v` (`id`, `attempt`: the JSON array `rows`) whose claim is still
 * that attempt's: a run whose lease ended, and whose delivery was claimed again since, must not
 * touch the newer attempt. Read by primary key (`id = any(array(…))`, `statusOfFound`); the ids are
 * read from `rows` itself, so that the statement's text is the same however many rows it writes.
 */
export const stillClaimedAs = (rows: SQL) =>
  and(
    sql`${d.id} = any(array(select r.id from jsonb_to_recordset(${rows}) as r(id text)))`,
    sql`${d.id} = v.id`,
    sql`${statusOfFound} = 'delivering'`,
    sql`${d.attempts} = v.attempt`,
  );

/** The body sent: the event as `GET /events` shows it, with `connection` on an integrator app's webhook. */
export function deliveryBody(eventRow: typeof events.$inferSelect, connectionId: number | null): string {
  const body = eventBody(eventRow);
  return JSON.stringify(connectionId === null ? body : { ...body, connection: connectionId });
}

/** What a claim answers of each delivery it claimed. */
export const claimedSelection = {
  id: d.id,
  webhookId: d.webhookId,
  attempts: d.attempts,
  connectionId: d.connectionId,
  url: w.url,
  secretSealed: w.secretSealed,
  event: events,
};

type Chosen = WithSubqueryWithSelection<{ id: typeof d.id; webhookId: typeof d.webhookId; eventSeq: typeof d.eventSeq }, string>;

/**
 * The claim itself: the chosen deliveries become `delivering`, their attempt counted and their lease
 * set, each checked again on the row as it is now (a row another session changed meanwhile, an
 * outcome or a resend, is claimed only if it is still due); returned with webhook and event.
 */
export function claimChosen(withChosen: ReturnType<Handle["with"]>, chosen: Chosen, now: SQL) {
  return (
    withChosen
      .update(d)
      .set({ status: "delivering", attempts: sql`${d.attempts} + 1`, nextAttemptAt: leaseEnd(now), updatedAt: now })
      // PostgreSQL's UPDATE … FROM cannot join on the updated table: the joins go through `chosen`.
      .from(chosen)
      .innerJoin(w, eq(w.id, chosen.webhookId))
      .innerJoin(events, eq(events.seq, chosen.eventSeq))
      // `id = any(array(…))` reads the chosen rows by primary key. Without it, in a table whose
      // statistics lag a burst of new deliveries, the planner reads every due row to join a few.
      .where(
        and(eq(d.id, chosen.id), sql`${d.id} = any(array(select id from ${chosen}))`, stillDueAt(now), lt(d.attempts, maxDeliveryAttempts)),
      )
      .returning(claimedSelection)
  );
}

export type ClaimedRow = Awaited<ReturnType<typeof claimChosen>>[number];

export function claimedDelivery(row: ClaimedRow): ClaimedDelivery {
  return {
    id: row.id,
    webhookId: row.webhookId,
    attempt: row.attempts,
    url: row.url,
    secret: signingSecretOf({ id: row.webhookId, secretSealed: row.secretSealed }),
    event: { id: eventBody(row.event).id, body: deliveryBody(row.event, row.connectionId) },
  };
}

/**
 * Gives back deliveries claimed but never attempted (the embedded lane's claims ahead it will not start:
 * it stops, or they waited past half their lease):
 * due again at once, their attempt no longer counted, each only while the claim is still this one.
 */
export async function releaseClaims(db: Handle, input: { claimed: ClaimedDelivery[]; now: Date }): Promise<void> {
  const { claimed, now } = input;
  if (claimed.length === 0) return;
  const rows = jsonbOf(JSON.stringify(claimed.map((one) => ({ id: one.id, attempt: one.attempt }))));
  await db
    .update(d)
    .set({ status: "pending", attempts: sql`${d.attempts} - 1`, nextAttemptAt: now, updatedAt: now })
    .from(sql`jsonb_to_recordset(${rows}) as v(id text, attempt int)`)
    .where(stillClaimedAs(rows));
}

/** One delivery's place in the queue (the Inngest path, when its claim got nothing): undefined when there is no such delivery. */
export async function deliveryState(db: Handle, id: string) {
  const [row] = await db
    .select({ status: d.status, nextAttemptAt: d.nextAttemptAt, active: w.active })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(eq(d.id, id));
  return row;
}

/**
 * Due deliveries of active webhooks, for the Inngest sweep (nothing claimed): those never attempted,
 * and those overdue by more than `graceSeconds` (their run was lost, or died holding the claim). A
 * delivery between attempts has its run asleep until its next attempt, which it claims on time.
 */
export async function findDueDeliveries(
  db: Handle,
  input: { now: Date; limit: number; graceSeconds: number },
): Promise<{ id: string; webhookId: string; attempts: number }[]> {
  const overdue = new Date(input.now.getTime() - input.graceSeconds * 1000);
  return db
    .select({ id: d.id, webhookId: d.webhookId, attempts: d.attempts })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(or(and(eq(d.attempts, 0), dueAt(input.now)), dueAt(overdue)), eq(w.active, true)))
    .orderBy(asc(d.nextAttemptAt))
    .limit(input.limit);
}

/** Deliveries due now to an active webhook: the webhook backlog the metrics report. */
export async function countDueDeliveries(db: Handle, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(dueAt(now), eq(w.active, true)));
  return row.count;
}

/** When the next delivery of an active webhook falls due (a retry, or a lease ending); null when none waits. */
export async function nextDeliveryDueAt(db: Handle): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | Date | null>`min(${d.nextAttemptAt})` })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(unfinished, eq(w.active, true)));
  return row?.at ? new Date(row.at) : null;
}
