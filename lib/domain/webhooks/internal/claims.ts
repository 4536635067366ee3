import { and, asc, eq, gt, gte, inArray, lt, lte, sql } from "drizzle-orm";
import type { Handle } from "@/db";
import { builtOnce } from "@/db/built-once";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { outcomeRows, outcomesWritten, type AttemptEnded, type ClaimedDelivery } from "../outcomes";
import { claimChosen, claimedDelivery, claimedSelection, dueAt, inFlightNow, jsonbOf, momentOf, type ClaimedRow } from "./delivery-queue";
import { maxDeliveryAttempts, maxInFlightPerWebhook } from "./schedule";

/**
 * Which deliveries are claimed: the claim of due deliveries (both engines), and the embedded lane's
 * hand-off of a succeeded attempt's slot to its webhook's next delivery. Both end in the queue's
 * claim update (`claimChosen`); both keep each webhook within its cap of deliveries in flight.
 */

// Two-integer advisory lock naming "claiming webhook deliveries": claims are short and serialized, so
// the per-webhook cap holds across instances. Candidates are not row-locked (locking a hundred rows to
// claim a few costs more than the claim): the few chosen are, and the update checks each again as it is then.
const claimLock = [0x77686b73, 1] as const;

const d = webhookDeliveries;
const w = webhooks;

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
 * drizzle's building of this statement showed in its profile), planned at each run (`planEachRun`,
 * as the hand-off). Placeholders: `now`, `limit`, `perWebhook`, `candidates` (`limit × perWebhook`), and
 * with `narrowed`, `ids` (a JSON array).
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
  const rows = await handOff.run(db, { outcomes: outcomeRows(ended), slots: JSON.stringify(slots), now: now.toISOString() });
  return rows.map(claimedDelivery);
}

/**
 * `recordSuccessesAndHandOff`'s statement, built once: it runs for every few deliveries of a busy
 * lane, and building it each time was a sixth of the lane's CPU (docs/benchmarks.md). Planned at
 * each run (`planEachRun`). Placeholders: `outcomes` (`outcomeRows`), `slots` (per webhook, how
 * many of its attempts ended), `now`.
 */
const handOff = builtOnce<ClaimedRow>(
  claimedSelection,
  (db) => {
    const outcomes = jsonbOf(sql.placeholder("outcomes"));
    const slots = jsonbOf(sql.placeholder("slots"));
    const now = momentOf(sql.placeholder("now"));
    const healed = db.$with("healed").as(
      db
        .update(w)
        .set({ failingSince: null })
        .where(
          and(
            sql`${w.id} in (select s.webhook_id from jsonb_to_recordset(${slots}) as s(webhook_id text))`,
            sql`${w.failingSince} is not null`,
          ),
        )
        .returning({ id: w.id }),
    );
    const handedOff = db.$with("handed_off", { id: d.id, webhookId: d.webhookId, eventSeq: d.eventSeq }).as(sql`
      select next.id, next.webhook_id, next.event_seq
      from jsonb_to_recordset(${slots}) as s(webhook_id text, count int)
      join ${w} on ${w.id} = s.webhook_id and ${w.active}
      cross join lateral (
        select ${d.id}, ${d.webhookId}, ${d.eventSeq} from ${d}
        where ${d.webhookId} = s.webhook_id and ${dueAt(now)} and ${d.attempts} < ${maxDeliveryAttempts}
          and ${d.id} not in (select e.id from jsonb_to_recordset(${outcomes}) as e(id text))
        order by ${d.nextAttemptAt} limit s.count
        for update skip locked
      ) as next`);
    return claimChosen(db.with(outcomesWritten(db, outcomes), healed, handedOff), handedOff, now);
  },
  { planEachRun: true },
);
