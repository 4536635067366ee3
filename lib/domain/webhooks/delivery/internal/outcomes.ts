import { and, sql, type SQL } from "drizzle-orm";
import type { Handle } from "@/db";
import { builtOnce } from "@/db/built-once";
import { webhookDeliveries, webhooks } from "@/db/schema";
import type { DeliveryAttemptResult } from "./attempt";
import { stopFailingWebhook, systemStopReason } from "./health";
import {
  claimChosen,
  claimedDelivery,
  claimedSelection,
  dueAt,
  jsonbOf,
  maxDeliveryAttempts,
  momentOf,
  retryDelaysSeconds,
  stillClaimedAs,
  type ClaimedDelivery,
  type ClaimedRow,
} from "./queue";

export type DeliveryOutcome =
  | { id: string; attempt: number; status: "succeeded"; statusCode: number | null }
  | { id: string; attempt: number; status: "retrying"; nextAttemptAt: string; error: string }
  | { id: string; attempt: number; status: "failed"; error: string; webhookStopped: boolean };

export interface AttemptEnded {
  claimed: ClaimedDelivery;
  result: DeliveryAttemptResult;
  /** The attempt's moment: the next attempt is scheduled from it. */
  now: Date;
}

const d = webhookDeliveries;
const w = webhooks;

/** What an attempt's result makes of its delivery: succeeded, failed (7th attempt, or 410 Gone), or retried on schedule. */
function outcomeOf({ claimed, result, now }: AttemptEnded): DeliveryOutcome {
  const base = { id: claimed.id, attempt: claimed.attempt };
  if (result.ok) return { ...base, status: "succeeded", statusCode: result.status };
  const error = result.error ?? "status_not_2xx";
  if (result.status === 410 || claimed.attempt >= maxDeliveryAttempts) {
    return { ...base, status: "failed", error, webhookStopped: result.status === 410 };
  }
  const nextAttemptAt = new Date(now.getTime() + retryDelaysSeconds[claimed.attempt - 1] * 1000);
  return { ...base, status: "retrying", nextAttemptAt: nextAttemptAt.toISOString(), error };
}

/** The ended attempts' outcomes, as the JSON array `outcomesWritten` reads. */
function outcomeRows(ended: AttemptEnded[], outcomes: DeliveryOutcome[] = ended.map(outcomeOf)): string {
  const rows = ended.map(({ claimed, result, now }, i) => {
    const outcome = outcomes[i];
    return {
      id: claimed.id,
      attempt: claimed.attempt,
      status: outcome.status === "retrying" ? "pending" : outcome.status,
      next_attempt_at: outcome.status === "retrying" ? outcome.nextAttemptAt : null,
      last_status_code: result.status,
      last_error: result.error,
      last_duration_ms: result.durationMs,
      last_response_excerpt: result.responseExcerpt,
      last_request_headers: result.request.headers,
      // When the receiver answered (or the attempt gave up), not when it started: the claim's moment
      // is the same for every attempt of a pass, and would make a fast answer look as late as a slow one.
      updated_at: new Date(now.getTime() + result.durationMs).toISOString(),
    };
  });
  return JSON.stringify(rows);
}

/**
 * The data-modifying CTE writing each ended attempt's outcome (`rows`: `outcomeRows` as `jsonb`),
 * only while the claim is still that attempt's (a run whose lease ended and whose delivery was
 * claimed again must not overwrite the newer attempt).
 */
function outcomesWritten(db: Handle, rows: SQL) {
  return db.$with("written").as(
    db
      .update(d)
      .set({
        status: sql`v.status`,
        nextAttemptAt: sql`v.next_attempt_at`,
        lastStatusCode: sql`v.last_status_code`,
        lastError: sql`v.last_error`,
        lastDurationMs: sql`v.last_duration_ms`,
        lastResponseExcerpt: sql`v.last_response_excerpt`,
        lastRequestHeaders: sql`v.last_request_headers`,
        updatedAt: sql`v.updated_at`,
      })
      .from(
        sql`jsonb_to_recordset(${rows}) as v(id text, attempt int, status text, next_attempt_at timestamptz,
          last_status_code int, last_error text, last_duration_ms int, last_response_excerpt text, last_request_headers jsonb,
          updated_at timestamptz)`,
      )
      .where(stillClaimedAs(rows))
      .returning({ id: d.id }),
  );
}

/**
 * Writes the outcomes of ended attempts in one statement (the lane groups those ending while the
 * previous write runs), and each webhook's `failing_since` (cleared by a success in the batch, else
 * set by the first failure). Then the health check: a `410 Gone` stops the webhook at once, 5 days
 * of failures too, and its owner is mailed.
 *
 * A write lost in a crash leaves its delivery `delivering` until its lease ends, then attempted
 * again: at worst a duplicate, never a lost delivery.
 */
export async function recordDeliveryOutcomes(db: Handle, ended: AttemptEnded[]): Promise<DeliveryOutcome[]> {
  if (ended.length === 0) return [];
  const outcomes = ended.map(outcomeOf);
  const written = outcomesWritten(db, jsonbOf(outcomeRows(ended, outcomes)));
  const health = new Map<string, { ok: boolean; failedAt: string }>();
  for (const { claimed, result, now } of ended) {
    const seen = health.get(claimed.webhookId);
    health.set(claimed.webhookId, {
      ok: (seen?.ok ?? false) || result.ok,
      failedAt: seen && seen.failedAt < now.toISOString() ? seen.failedAt : now.toISOString(),
    });
  }
  const healthRows = [...health].map(([webhookId, note]) => ({ webhook_id: webhookId, ok: note.ok, failed_at: note.failedAt }));
  // A success writes its webhook only when it was failing; a failure sets failing_since when unset.
  const noted = await db
    .with(written)
    .update(w)
    .set({ failingSince: sql`case when h.ok then null else coalesce(${w.failingSince}, h.failed_at) end` })
    .from(sql`jsonb_to_recordset(${JSON.stringify(healthRows)}::jsonb) as h(webhook_id text, ok boolean, failed_at timestamptz)`)
    .where(and(sql`${w.id} = h.webhook_id`, sql`(not h.ok or ${w.failingSince} is not null)`))
    .returning({ id: w.id, failingSince: w.failingSince });
  const failingSince = new Map(noted.map((row) => [row.id, row.failingSince]));
  const stops = new Map<string, { reason: "gone" | "failing"; now: Date }>();
  for (const { claimed, result, now } of ended) {
    if (result.ok || health.get(claimed.webhookId)?.ok || stops.get(claimed.webhookId)?.reason === "gone") continue;
    const reason = systemStopReason({ gone: result.status === 410, failingSince: failingSince.get(claimed.webhookId) ?? null, now });
    if (reason) stops.set(claimed.webhookId, { reason, now });
  }
  for (const [webhookId, { reason, now }] of stops) await stopFailingWebhook(db, { webhookId, reason, now });
  return outcomes;
}

/**
 * The lane's outcome write when every attempt of the batch succeeded: the outcomes (and the
 * webhooks' `failing_since` cleared), and in the same statement each succeeded attempt's slot
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
 * each run. Placeholders: `outcomes` (`outcomeRows`), `slots` (per webhook, how many of its
 * attempts ended), `now`.
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
