import { and, asc, eq, gt, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { WithSubqueryWithSelection } from "drizzle-orm/pg-core";
import type { Handle } from "@/db";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import { eventBody } from "@/lib/domain/events/types";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { attemptDelivery, RECEIVER_TIMEOUT_MS, type DeliveryAttemptResult } from "./attempt";
import { deliveryLeaseSeconds, maxDeliveryAttempts, maxInFlightPerWebhook } from "./internal/schedule";
import {
  outcomesWritten,
  recordDeliveryOutcome,
  stillClaimedAs,
  type AttemptEnded,
  type ClaimedDelivery,
  type DeliveryOutcome,
} from "./outcomes";
import { signingSecretOf } from "./webhook-signing-secret";

export { deliveriesChannel } from "@/lib/domain/events/fan-out";

/**
 * The delivery engine (spec: Events, Delivery): both job engines call these functions, and every
 * bit of a delivery's state (attempt count, next attempt, last outcome) is in `webhook_deliveries`.
 *
 * A delivery is `pending` until an engine claims it; the claim marks it `delivering`, counts the
 * attempt and sets `next_attempt_at` to the end of a lease. The attempt runs outside any transaction,
 * then its outcome is written: `succeeded`, `pending` again with the next time of the schedule, or
 * `failed`. A delivery still `delivering` once its lease has ended belongs to a process that died
 * during the attempt: it is due again (at-least-once), and that lost attempt counts.
 */

export {
  deliveryLeaseSeconds,
  maxClaimedPerWebhook,
  maxDeliveryAttempts,
  maxInFlightPerWebhook,
  retryDelaysSeconds,
} from "./internal/schedule";
export { recordDeliveryOutcome, recordDeliveryOutcomes, type ClaimedDelivery, type DeliveryOutcome } from "./outcomes";

// Two-integer advisory lock naming "claiming webhook deliveries": claims are short and serialized, so
// the per-webhook cap holds across instances. Candidates are not row-locked (locking a hundred rows to
// claim a few costs more than the claim): the few chosen are, and the update checks each again as it is then.
const claimLock = [0x77686b73, 1] as const;

const d = webhookDeliveries;
const w = webhooks;

const leaseEnd = (now: Date) => new Date(now.getTime() + deliveryLeaseSeconds * 1000);

/**
 * Not finished, written as the due index's predicate (literals, not parameters): PostgreSQL uses a
 * partial index only when it can prove the query implies its predicate, also in a generic plan.
 */
const unfinished = sql`${d.status} in ('pending', 'delivering')`;
const inFlightNow = sql`${d.status} = 'delivering'`;

/** Due: pending and its time has come, or delivering with an ended lease (`next_attempt_at` holds the lease's end). */
const dueAt = (now: Date) => and(unfinished, lte(d.nextAttemptAt, now));

/** The body sent: the event as `GET /events` shows it, with `connection` on an integrator app's webhook (DESIGN §4). */
export function deliveryBody(eventRow: typeof events.$inferSelect, connectionId: number | null): string {
  const body = eventBody(eventRow);
  return JSON.stringify(connectionId === null ? body : { ...body, connection: connectionId });
}

/**
 * Claims up to `limit` due deliveries of active webhooks, at most `perWebhook` (by default
 * `maxInFlightPerWebhook`) claimed per webhook counting those other runs hold. Deliveries of a stopped webhook are left pending: they
 * go out when it is started again (or are purged with the log after 30 days). `ids` narrows the claim
 * to those deliveries (the Inngest path claims its own).
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
  const { now, limit, perWebhook = maxInFlightPerWebhook } = input;
  if (limit < 1 || input.ids?.length === 0) return [];
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${claimLock[0]}, ${claimLock[1]})`);
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
    const candidates = tx.$with("candidates").as(
      tx
        .select({ id: d.id, webhookId: d.webhookId, eventSeq: d.eventSeq, dueAt: sql<Date>`${d.nextAttemptAt}`.as("due_at") })
        .from(d)
        .innerJoin(w, eq(w.id, d.webhookId))
        .where(and(dueAt(now), lt(d.attempts, maxDeliveryAttempts), eq(w.active, true), input.ids ? inArray(d.id, input.ids) : undefined))
        .orderBy(asc(d.nextAttemptAt))
        .limit(limit * perWebhook),
    );
    const ranked = tx.$with("ranked").as(
      tx
        .select({
          id: candidates.id,
          webhookId: candidates.webhookId,
          eventSeq: candidates.eventSeq,
          dueAt: candidates.dueAt,
          slot: sql<number>`row_number() over (partition by ${candidates.webhookId} order by ${candidates.dueAt}) + coalesce(${busy.inFlight}, 0)`.as(
            "slot",
          ),
        })
        .from(candidates)
        .leftJoin(busy, eq(busy.webhookId, candidates.webhookId)),
    );
    const chosen = tx
      .$with("chosen")
      .as(
        tx
          .select({ id: ranked.id, webhookId: ranked.webhookId, eventSeq: ranked.eventSeq })
          .from(ranked)
          .where(lte(ranked.slot, perWebhook))
          .orderBy(asc(ranked.dueAt))
          .limit(limit),
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
  });
  return rows.map(claimedDelivery);
}

type Chosen = WithSubqueryWithSelection<{ id: typeof d.id; webhookId: typeof d.webhookId; eventSeq: typeof d.eventSeq }, string>;

/**
 * The claim itself: the chosen deliveries become `delivering`, their attempt counted and their lease
 * set, each checked again on the row as it is now (a row another session changed meanwhile, an
 * outcome or a resend, is claimed only if it is still due); returned with webhook and event.
 */
function claimChosen(withChosen: ReturnType<Handle["with"]>, chosen: Chosen, now: Date) {
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
      .where(and(eq(d.id, chosen.id), sql`${d.id} = any(array(select id from ${chosen}))`, dueAt(now), lt(d.attempts, maxDeliveryAttempts)))
      .returning({
        id: d.id,
        webhookId: d.webhookId,
        attempts: d.attempts,
        connectionId: d.connectionId,
        url: w.url,
        secretSealed: w.secretSealed,
        event: events,
      })
  );
}

function claimedDelivery(row: Awaited<ReturnType<typeof claimChosen>>[number]): ClaimedDelivery {
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
 * The embedded lane's outcome write when every attempt of the batch succeeded: the outcomes (and
 * the webhooks' `failing_since` cleared), and in the same statement each succeeded attempt's slot
 * handed to its webhook's next due delivery, claimed as `claimDueDeliveries` claims. One for one per
 * webhook, in the statement that ends the attempts, so a webhook's deliveries in flight never grow
 * (the cap holds across instances without the claim's lock), and a busy lane moves from one
 * delivery to the next without a claim transaction in between. Its candidates skip rows another
 * session has locked: it never waits for a claim that may be waiting for it (a deadlock otherwise).
 * Answers the deliveries claimed.
 */
export async function recordSuccessesAndHandOff(db: Handle, input: { ended: AttemptEnded[]; now: Date }): Promise<ClaimedDelivery[]> {
  const { ended, now } = input;
  if (ended.length === 0) return [];
  if (ended.some(({ result }) => !result.ok)) throw new Error("recordSuccessesAndHandOff takes succeeded attempts only");
  const perWebhook = new Map<string, number>();
  for (const { claimed } of ended) perWebhook.set(claimed.webhookId, (perWebhook.get(claimed.webhookId) ?? 0) + 1);
  const slots = [...perWebhook].map(([webhookId, count]) => ({ webhook_id: webhookId, count }));
  const endedIds = ended.map(({ claimed }) => claimed.id);
  const written = outcomesWritten(db, ended);
  const healed = db.$with("healed").as(
    db
      .update(w)
      .set({ failingSince: null })
      .where(and(inArray(w.id, [...perWebhook.keys()]), sql`${w.failingSince} is not null`))
      .returning({ id: w.id }),
  );
  const handedOff = db.$with("handed_off", { id: d.id, webhookId: d.webhookId, eventSeq: d.eventSeq }).as(sql`
    select next.id, next.webhook_id, next.event_seq
    from jsonb_to_recordset(${JSON.stringify(slots)}::jsonb) as s(webhook_id text, count int)
    join ${w} on ${w.id} = s.webhook_id and ${w.active}
    cross join lateral (
      select ${d.id}, ${d.webhookId}, ${d.eventSeq} from ${d}
      where ${d.webhookId} = s.webhook_id and ${dueAt(now)} and ${d.attempts} < ${maxDeliveryAttempts}
        and ${d.id} not in ${endedIds}
      order by ${d.nextAttemptAt} limit s.count
      for update skip locked
    ) as next`);
  const rows = await claimChosen(db.with(written, healed, handedOff), handedOff, now);
  return rows.map(claimedDelivery);
}

/**
 * Gives back deliveries claimed but never attempted (the embedded lane's claims ahead it will not start:
 * it stops, or they waited past half their lease):
 * due again at once, their attempt no longer counted, each only while the claim is still this one.
 */
export async function releaseClaims(db: Handle, input: { claimed: ClaimedDelivery[]; now: Date }): Promise<void> {
  const { claimed, now } = input;
  if (claimed.length === 0) return;
  const rows = claimed.map((one) => ({ id: one.id, attempt: one.attempt }));
  await db
    .update(d)
    .set({ status: "pending", attempts: sql`${d.attempts} - 1`, nextAttemptAt: now, updatedAt: now })
    .from(sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, attempt int)`)
    .where(stillClaimedAs(rows.map((row) => row.id)));
}

/** A claimed delivery's POST, outside any transaction; never throws for what the receiver or the network does. */
export function attemptClaimed(input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number }): Promise<DeliveryAttemptResult> {
  const { claimed, now } = input;
  return attemptDelivery({
    url: claimed.url,
    secret: claimed.secret,
    event: claimed.event,
    now,
    timeoutMs: input.timeoutMs ?? RECEIVER_TIMEOUT_MS,
  });
}

/** One claimed attempt: the POST, then its outcome. */
export async function runClaimedDelivery(
  db: Handle,
  input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number },
): Promise<DeliveryOutcome> {
  const result = await attemptClaimed(input);
  return recordDeliveryOutcome(db, { claimed: input.claimed, result, now: input.now });
}

export type DeliveryStep =
  | DeliveryOutcome
  | { id: string; status: "waiting"; until: string }
  | { id: string; status: "gone"; reason: "finished" | "missing" | "webhook_stopped" };

/**
 * One attempt of one delivery by id (the Inngest path): claimed like the runner claims, or when
 * it is not due yet (or another run holds it, or its webhook is at its cap) the time to come back.
 */
export async function deliverById({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { id: string; now: Date; timeoutMs?: number };
}): Promise<DeliveryStep> {
  const db = ctx.database.connection;
  const { id, now } = input;
  const [claimed] = await claimDueDeliveries(db, { now, limit: 1, ids: [id] });
  if (claimed) return runClaimedDelivery(db, { claimed, now, timeoutMs: input.timeoutMs });
  const [row] = await db
    .select({ status: d.status, nextAttemptAt: d.nextAttemptAt, active: w.active })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(eq(d.id, id));
  if (!row) return { id, status: "gone", reason: "missing" };
  if (row.status === "succeeded" || row.status === "failed") return { id, status: "gone", reason: "finished" };
  // A stopped webhook's delivery waits for its start; the sweep sends it again then.
  if (!row.active) return { id, status: "gone", reason: "webhook_stopped" };
  const until = row.nextAttemptAt && row.nextAttemptAt > now ? row.nextAttemptAt : new Date(now.getTime() + 5000);
  return { id, status: "waiting", until: until.toISOString() };
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

/** When the next delivery of an active webhook falls due (a retry, or a lease ending); null when none waits. */
export async function nextDeliveryDueAt(db: Handle): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | Date | null>`min(${d.nextAttemptAt})` })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(unfinished, eq(w.active, true)));
  return row?.at ? new Date(row.at) : null;
}
