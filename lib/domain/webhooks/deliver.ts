import { and, asc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import type { Handle } from "@/db";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import { eventBody } from "@/lib/domain/events/types";
import type { ServiceContext, StaffActor } from "@/lib/platform/context";
import { attemptDelivery, RECEIVER_TIMEOUT_MS, type DeliveryAttemptResult } from "./attempt";
import { noteAttemptHealth, tellOwnerWebhookStopped } from "./health";
import { signingSecretOf } from "./webhook-signing-secret";

export { deliveriesChannel } from "./fan-out-event";

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

/** Waits after failed attempts 1 to 6; the 7th failure is final. */
export const retryDelaysSeconds = [30, 120, 600, 1800, 7200, 21600] as const;
export const maxDeliveryAttempts = retryDelaysSeconds.length + 1;

/** How long a claim holds a delivery: the receiver's 10 seconds and ample margin for writing the outcome. */
export const deliveryLeaseSeconds = 60;

/** Attempts in flight at once per webhook, so that one slow receiver never holds up the others. */
export const maxInFlightPerWebhook = 4;

// Two-integer advisory lock naming "claiming webhook deliveries": claims are short and serialized, so
// the per-webhook cap holds across instances; rows are still taken with SKIP LOCKED.
const claimLock = [0x77686b73, 1] as const;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  /** The number of this attempt, 1 to 7 (the claim counts it). */
  attempt: number;
  url: string;
  secret: string;
  event: { id: string; body: string };
}

export type DeliveryOutcome =
  | { id: string; attempt: number; status: "succeeded"; statusCode: number | null }
  | { id: string; attempt: number; status: "retrying"; nextAttemptAt: string; error: string }
  | { id: string; attempt: number; status: "failed"; error: string; webhookStopped: boolean };

const d = webhookDeliveries;
const w = webhooks;

const leaseEnd = (now: Date) => new Date(now.getTime() + deliveryLeaseSeconds * 1000);

/** Due: pending and its time has come, or delivering with an ended lease (`next_attempt_at` holds the lease's end). */
const dueAt = (now: Date) => and(inArray(d.status, ["pending", "delivering"]), lte(d.nextAttemptAt, now));

/** The body sent: the event as `GET /events` shows it, with `connection` on an integrator app's webhook (DESIGN §4). */
export function deliveryBody(eventRow: typeof events.$inferSelect, connectionId: number | null): string {
  const body = eventBody(eventRow);
  return JSON.stringify(connectionId === null ? body : { ...body, connection: connectionId });
}

/**
 * Deliveries lost in the middle of their last attempt (the process died) are failed; they must not
 * be claimed for an eighth.
 */
async function failExhausted(db: Handle, now: Date): Promise<void> {
  await db
    .update(d)
    .set({ status: "failed", nextAttemptAt: null, lastError: "attempt_interrupted", updatedAt: now })
    .where(and(eq(d.status, "delivering"), lte(d.nextAttemptAt, now), sql`${d.attempts} >= ${maxDeliveryAttempts}`));
}

/**
 * Claims up to `limit` due deliveries of active webhooks, at most `maxInFlightPerWebhook` in flight
 * per webhook counting those other runs hold. Deliveries of a stopped webhook are left pending: they
 * go out when it is started again (or are purged with the log after 30 days). `ids` narrows the claim
 * to those deliveries (the Inngest path claims its own).
 */
export async function claimDueDeliveries(db: Handle, input: { now: Date; limit: number; ids?: string[] }): Promise<ClaimedDelivery[]> {
  const { now, limit } = input;
  if (limit < 1 || input.ids?.length === 0) return [];
  await failExhausted(db, now);
  const claimed = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${claimLock[0]}, ${claimLock[1]})`);
    const busy = await tx
      .select({ webhookId: d.webhookId, count: sql<number>`count(*)::int` })
      .from(d)
      .where(and(eq(d.status, "delivering"), gt(d.nextAttemptAt, now)))
      .groupBy(d.webhookId);
    const inFlight = new Map(busy.map((row) => [row.webhookId, row.count]));
    const candidates = await tx
      .select({ id: d.id, webhookId: d.webhookId })
      .from(d)
      .innerJoin(w, eq(w.id, d.webhookId))
      .where(and(dueAt(now), eq(w.active, true), input.ids ? inArray(d.id, input.ids) : undefined))
      .orderBy(asc(d.nextAttemptAt))
      .limit(limit * maxInFlightPerWebhook)
      .for("update", { of: d, skipLocked: true });
    const chosen: string[] = [];
    for (const row of candidates) {
      if (chosen.length >= limit) break;
      const count = inFlight.get(row.webhookId) ?? 0;
      if (count >= maxInFlightPerWebhook) continue;
      inFlight.set(row.webhookId, count + 1);
      chosen.push(row.id);
    }
    if (chosen.length === 0) return [];
    return tx
      .update(d)
      .set({ status: "delivering", attempts: sql`${d.attempts} + 1`, nextAttemptAt: leaseEnd(now), updatedAt: now })
      .where(inArray(d.id, chosen))
      .returning();
  });
  return withTargets(db, claimed);
}

/** What the attempt needs besides the row: the webhook's address and secret, and the body. */
async function withTargets(db: Handle, rows: DeliveryRow[]): Promise<ClaimedDelivery[]> {
  if (rows.length === 0) return [];
  const targets = await db
    .select({ deliveryId: d.id, webhook: { id: w.id, url: w.url, secretSealed: w.secretSealed }, event: events })
    .from(d)
    .innerJoin(w, eq(w.id, d.webhookId))
    .innerJoin(events, eq(events.seq, d.eventSeq))
    .where(
      inArray(
        d.id,
        rows.map((row) => row.id),
      ),
    );
  const byId = new Map(targets.map((target) => [target.deliveryId, target]));
  return rows.flatMap((row) => {
    const target = byId.get(row.id);
    if (!target) return [];
    return [
      {
        id: row.id,
        webhookId: row.webhookId,
        attempt: row.attempts,
        url: target.webhook.url,
        secret: signingSecretOf(target.webhook),
        event: { id: eventBody(target.event).id, body: deliveryBody(target.event, row.connectionId) },
      },
    ];
  });
}

/**
 * Writes an attempt's outcome, only while the claim is still this attempt's (a run whose lease ended
 * and whose delivery was claimed again must not overwrite the newer attempt), and the webhook's
 * health: a `410 Gone` stops it at once and fails the delivery, 5 days of failures stop it too; its
 * owner is mailed after the commit.
 */
export async function recordDeliveryOutcome(
  db: Handle,
  input: { claimed: ClaimedDelivery; result: DeliveryAttemptResult; now: Date },
): Promise<DeliveryOutcome> {
  const { claimed, result, now } = input;
  const gone = result.status === 410;
  const last = {
    lastStatusCode: result.status,
    lastError: result.error,
    lastDurationMs: result.durationMs,
    lastResponseExcerpt: result.responseExcerpt,
    lastRequestHeaders: result.request.headers,
    updatedAt: now,
  };
  const base = { id: claimed.id, attempt: claimed.attempt };
  let outcome: DeliveryOutcome;
  let changes: Partial<typeof d.$inferInsert>;
  if (result.ok) {
    outcome = { ...base, status: "succeeded", statusCode: result.status };
    changes = { status: "succeeded", nextAttemptAt: null };
  } else if (gone || claimed.attempt >= maxDeliveryAttempts) {
    outcome = { ...base, status: "failed", error: result.error ?? "status_not_2xx", webhookStopped: gone };
    changes = { status: "failed", nextAttemptAt: null };
  } else {
    const nextAttemptAt = new Date(now.getTime() + retryDelaysSeconds[claimed.attempt - 1] * 1000);
    outcome = { ...base, status: "retrying", nextAttemptAt: nextAttemptAt.toISOString(), error: result.error ?? "status_not_2xx" };
    changes = { status: "pending", nextAttemptAt };
  }
  const stopped = await db.transaction(async (tx) => {
    await tx
      .update(d)
      .set({ ...last, ...changes })
      .where(and(eq(d.id, claimed.id), eq(d.status, "delivering"), eq(d.attempts, claimed.attempt)));
    return noteAttemptHealth(tx, { webhookId: claimed.webhookId, ok: result.ok, gone, now });
  });
  if (stopped) await tellOwnerWebhookStopped(db, stopped);
  return outcome;
}

/** One claimed attempt: the POST outside any transaction, then its outcome. */
export async function runClaimedDelivery(
  db: Handle,
  input: { claimed: ClaimedDelivery; now: Date; timeoutMs?: number },
): Promise<DeliveryOutcome> {
  const { claimed, now } = input;
  const result = await attemptDelivery({
    url: claimed.url,
    secret: claimed.secret,
    event: claimed.event,
    now,
    timeoutMs: input.timeoutMs ?? RECEIVER_TIMEOUT_MS,
  });
  return recordDeliveryOutcome(db, { claimed, result, now });
}

export interface DeliverDueInput {
  now: Date;
  /** Deliveries claimed and attempted together. */
  limit: number;
  /** The receiver's time-out (the spec's 10 seconds unless a test shortens it). */
  timeoutMs?: number;
}

/**
 * Claims the due deliveries (at most `limit`) and attempts them all at once, each outside any
 * transaction; resolves with their outcomes. The embedded runner's pass and the CLI's.
 */
export async function deliverDue({ ctx, input }: { ctx: ServiceContext<StaffActor>; input: DeliverDueInput }): Promise<DeliveryOutcome[]> {
  const db = ctx.database.connection;
  const claimed = await claimDueDeliveries(db, { now: input.now, limit: input.limit });
  return Promise.all(claimed.map((one) => runClaimedDelivery(db, { claimed: one, now: input.now, timeoutMs: input.timeoutMs })));
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
    .where(and(inArray(d.status, ["pending", "delivering"]), eq(w.active, true)));
  return row?.at ? new Date(row.at) : null;
}
