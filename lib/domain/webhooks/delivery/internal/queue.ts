import { and, asc, eq, gt, gte, inArray, lt, lte, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { WithSubqueryWithSelection } from "drizzle-orm/pg-core";
import type { Handle } from "@/db";
import { builtOnce } from "@/db/built-once";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import { eventBody } from "@/lib/domain/event-types";
import { signingSecretOf } from "../../webhook-signing-secret";

/**
 * The queue: `webhook_deliveries` is its own job table. Here: the schedule, what due means, the
 * claim of due deliveries (both engines), the give-back of claims never attempted, and the reads of
 * one delivery's state and of due times. The lane's hand-off claims through `claimChosen` too (`outcomes.ts`).
 */

/** Waits after failed attempts 1 to 6; the 7th failure is final. */
export const retryDelaysSeconds = [30, 120, 600, 1800, 7200, 21600] as const;
export const maxDeliveryAttempts = retryDelaysSeconds.length + 1;

/**
 * How long a claim holds a delivery: a wait for a free slot when it was claimed ahead (up to three
 * receivers' 10 seconds before it; one that has waited half the lease is given back instead of
 * started), the receiver's 10 seconds, and margin for writing the outcome.
 */
export const deliveryLeaseSeconds = 60;

/** Requests in flight at once per webhook and process, so that one slow receiver never holds up the others. */
export const maxInFlightPerWebhook = 4;

/**
 * Deliveries claimed at once per webhook by the lane: three claimed ahead for each request in
 * flight, so a slot goes on to its next request the moment a receiver answers, while the answer's
 * outcome is written. One ahead was not enough: on a busy machine the write of a batch's outcomes
 * takes longer than a request, and the slots waited for it; more ahead make larger batches, which
 * the write takes with less time per delivery (docs/benchmarks.md, Webhook delivery).
 */
export const maxClaimedPerWebhook = 4 * maxInFlightPerWebhook;

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  /** The number of this attempt, 1 to 7 (the claim counts it). */
  attempt: number;
  url: string;
  /** Null when the stored secret does not open: the attempt fails without a request. */
  secret: string | null;
  event: { id: string; body: string };
}

// Two-integer advisory lock naming "claiming webhook deliveries": claims are short and serialized, so
// the per-webhook cap holds across instances. Candidates are not row-locked (locking a hundred rows to
// claim a few costs more than the claim): the few chosen are, and the update checks each again as it is then.
const claimLock = [0x77686b73, 1] as const;

const d = webhookDeliveries;
const w = webhooks;

/** A moment in a statement: a value, or the placeholder of a statement built once. */
export const momentOf = (at: Date | Placeholder): SQL => sql`${at instanceof Date ? at.toISOString() : at}::timestamptz`;

/** A JSON array in a statement, as `jsonb`: a value, or a placeholder. */
export const jsonbOf = (json: string | Placeholder): SQL => sql`${json}::jsonb`;

/**
 * Not finished, written as the due index's predicate (literals, not parameters): PostgreSQL uses a
 * partial index only when it can prove the query implies its predicate, also in a generic plan.
 */
const unfinished = sql`${d.status} in ('pending', 'delivering')`;
const inFlightNow = sql`${d.status} = 'delivering'`;

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
  const leaseEnd = sql`${now} + ${sql.raw(`interval '${deliveryLeaseSeconds} seconds'`)}`;
  return (
    withChosen
      .update(d)
      .set({ status: "delivering", attempts: sql`${d.attempts} + 1`, nextAttemptAt: leaseEnd, updatedAt: now })
      // PostgreSQL's UPDATE … FROM cannot join on the updated table: the joins go through `chosen`.
      .from(chosen)
      .innerJoin(w, eq(w.id, chosen.webhookId))
      .innerJoin(events, eq(events.seq, chosen.eventSeq))
      // `id = any(array(…))` reads the chosen rows by primary key. Without it, in a table whose
      // statistics lag a burst of new deliveries, the planner reads every due row to join a few.
      .where(
        and(
          eq(d.id, chosen.id),
          sql`${d.id} = any(array(select id from ${chosen}))`,
          sql`${statusOfFound} in ('pending', 'delivering')`,
          lte(d.nextAttemptAt, now),
          lt(d.attempts, maxDeliveryAttempts),
        ),
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
 * Claims up to `limit` due deliveries of active webhooks, at most `perWebhook` (by default
 * `maxInFlightPerWebhook`) claimed per webhook counting those other runs hold. Deliveries of a
 * stopped webhook are left pending: they go out when it is started again (or are purged with the
 * log after 30 days). `ids` narrows the claim to those deliveries (the Inngest path claims its own).
 *
 * One statement after the lock (its snapshot is taken once the lock is held, so it counts every claim
 * committed before): it fails the deliveries lost during their last attempt (they must not be claimed
 * for an eighth), ranks the due ones per webhook after those in flight, claims the first within the
 * cap, and returns each with its webhook and event.
 */
export async function claimDueDeliveries(
  db: Handle,
  input: { now: Date; limit: number; ids?: string[]; perWebhook?: number },
): Promise<ClaimedDelivery[]> {
  const { now, limit, ids, perWebhook = maxInFlightPerWebhook } = input;
  if (limit < 1 || ids?.length === 0) return [];
  const values = { now: now.toISOString(), limit, perWebhook, candidates: limit * perWebhook, ids: JSON.stringify(ids ?? []) };
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${claimLock[0]}, ${claimLock[1]})`);
    return (ids ? claimOfIds : claim).run(tx, values);
  });
  return rows.map(claimedDelivery);
}

/**
 * `claimDueDeliveries`' statement, built once (a lane woken by every commit claims at each, and
 * drizzle's building of this statement showed in its profile), planned at each run. Placeholders:
 * `now`, `limit`, `perWebhook`, `candidates` (`limit × perWebhook`), and with `narrowed`, `ids` (a JSON array).
 */
const claimStatement = (narrowed: boolean) =>
  builtOnce<ClaimedRow>(
    claimedSelection,
    (tx) => {
      const now = momentOf(sql.placeholder("now"));
      const exhausted = tx.$with("exhausted").as(
        tx
          .update(d)
          .set({ status: "failed", nextAttemptAt: null, lastError: "attempt_interrupted", updatedAt: now })
          .where(and(inFlightNow, lte(d.nextAttemptAt, now), gte(d.attempts, maxDeliveryAttempts)))
          .returning({ id: d.id }),
      );
      const busy = tx.$with("busy").as(
        tx
          .select({ webhookId: d.webhookId, inFlight: sql<number>`count(*)`.as("in_flight") })
          .from(d)
          .where(and(inFlightNow, gt(d.nextAttemptAt, now)))
          .groupBy(d.webhookId),
      );
      const ofIds = narrowed ? sql`${d.id} in (select jsonb_array_elements_text(${jsonbOf(sql.placeholder("ids"))}))` : undefined;
      // A webhook at its cap is left out before the candidates' limit: else one webhook's backlog
      // (an account's burst) fills the candidates, none of which may be claimed, and every other
      // webhook's deliveries wait until that backlog is shorter than the limit.
      const belowCap = sql`${d.webhookId} not in (select busy.webhook_id from busy where busy.in_flight >= ${sql.placeholder("perWebhook")})`;
      const candidates = tx.$with("candidates").as(
        tx
          .select({ id: d.id, webhookId: d.webhookId, eventSeq: d.eventSeq, dueAt: sql<Date>`${d.nextAttemptAt}`.as("due_at") })
          .from(d)
          .innerJoin(w, eq(w.id, d.webhookId))
          .where(and(dueAt(now), lt(d.attempts, maxDeliveryAttempts), eq(w.active, true), belowCap, ofIds))
          .orderBy(asc(d.nextAttemptAt))
          .limit(sql.placeholder("candidates")),
      );
      const slot = sql<number>`row_number() over (partition by ${candidates.webhookId} order by ${candidates.dueAt}) + coalesce(${busy.inFlight}, 0)`;
      const ranked = tx.$with("ranked").as(
        tx
          .select({
            id: candidates.id,
            webhookId: candidates.webhookId,
            eventSeq: candidates.eventSeq,
            dueAt: candidates.dueAt,
            slot: slot.as("slot"),
          })
          .from(candidates)
          .leftJoin(busy, eq(busy.webhookId, candidates.webhookId)),
      );
      const chosen = tx.$with("chosen").as(
        tx
          .select({ id: ranked.id, webhookId: ranked.webhookId, eventSeq: ranked.eventSeq })
          .from(ranked)
          .where(sql`${ranked.slot} <= ${sql.placeholder("perWebhook")}`)
          .orderBy(asc(ranked.dueAt))
          .limit(sql.placeholder("limit")),
      );
      // The chosen few are locked, skipping those a hand-off holds: a claim never waits for a hand-off,
      // which may be waiting for it (a row a claim re-checked stays locked until it commits).
      const locked = tx.$with("locked").as(
        tx
          .select({ id: d.id, webhookId: d.webhookId, eventSeq: d.eventSeq })
          .from(d)
          .where(inArray(d.id, tx.select({ id: chosen.id }).from(chosen)))
          .for("update", { skipLocked: true }),
      );
      return claimChosen(tx.with(exhausted, busy, candidates, ranked, chosen, locked), locked, now);
    },
    { planEachRun: true },
  );
const claim = claimStatement(false);
const claimOfIds = claimStatement(true);

/**
 * Gives back deliveries claimed but never attempted (the lane's claims ahead it will not start: it
 * stops, or they waited past half their lease): due again at once, their attempt no longer counted,
 * each only while the claim is still this one.
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
