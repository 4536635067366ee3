import type { Database } from "@/db";
import {
  attemptClaimed,
  claimDueDeliveries,
  deliveriesChannel,
  deliveryLeaseSeconds,
  maxClaimedPerWebhook,
  maxInFlightPerWebhook,
  nextDeliveryDueAt,
  recordDeliveryOutcomes,
  recordSuccessesAndHandOff,
  releaseClaims,
  type ClaimedDelivery,
} from "@/lib/domain/webhooks/deliver";
import type { AttemptEnded } from "@/lib/domain/webhooks/outcomes";
import { logger } from "@/lib/base/logger";

/**
 * The embedded runner's webhook deliveries. They do not go through the jobs table: a delivery row
 * is its own job (`lib/domain/webhooks/deliver.ts`). The lane claims due deliveries and runs their
 * attempts without waiting for one another, up to `maxInFlight` requests at once in this process
 * and `maxInFlightPerWebhook` per webhook, so one slow receiver never holds up the others.
 *
 * It claims ahead: up to `maxClaimedPerWebhook` deliveries per webhook (twice the requests), those
 * beyond the free slots waiting in the lane. When a receiver answers, its slot goes on at once to
 * its webhook's next claimed delivery while the answer's outcome is written; the write hands a
 * newly claimed delivery on to the lane in the ended one's place. A slot thus never waits for the
 * database between two requests. Claims the lane could not start are given back when it stops.
 *
 * A pass (a claim) starts:
 * - when woken: the NOTIFY that the event's transaction sends reaches every listening instance at
 *   its commit (this process and the others through LISTEN on PostgreSQL; in process on PGlite);
 * - when an attempt ends, unless the outcome's write handed a delivery on in its place;
 * - when the next retry or lease end falls due, and at least every `sweepMs` as a safety net.
 */

export interface DeliveryLaneOptions {
  database: Database;
  /** Attempts in flight at once in this process. */
  maxInFlight?: number;
  /** The safety-net sweep's period. */
  sweepMs?: number;
  /** The receiver's time-out (tests shorten it). */
  timeoutMs?: number;
}

/**
 * How long the slots freed by ending attempts wait before a pass fills them: attempts end one after
 * another under load, and one claim for all those ending within this time costs what a claim for one
 * does. A commit's NOTIFY wakes the lane at once: a new event never waits for this.
 */
const refillDelayMs = 5;

/**
 * A delivery claimed ahead is not started once this much of its lease has gone: its request and the
 * outcome's write might outlast the lease, and another instance may claim it then. It is given back.
 */
const startWithinMs = (deliveryLeaseSeconds * 1000) / 2;

interface Held {
  claimed: ClaimedDelivery;
  /** When it was claimed: its lease runs from then. */
  claimedAt: number;
}

interface LaneState {
  options: Required<Omit<DeliveryLaneOptions, "timeoutMs">> & { timeoutMs?: number };
  /** Attempts whose outcome is not written yet (the request in flight, or its outcome being written). */
  attempts: Set<Promise<void>>;
  /** Requests in flight, in all and per webhook. */
  requests: number;
  requestsPerWebhook: Map<string, number>;
  /** Claimed ahead, per webhook, waiting for a free slot (oldest first; webhooks take turns). */
  waiting: Map<string, Held[]>;
  timer?: NodeJS.Timeout;
  refill?: NodeJS.Timeout;
  passing?: Promise<void>;
  again: boolean;
  stopped: boolean;
  unlisten?: () => Promise<void>;
  /** Ended attempts waiting for the outcome write in progress; written together by the next one. */
  outcomes: PendingOutcome[];
  /**
   * An outcome write runs: one at a time, those ending meanwhile go together in the next statement
   * (two at once made smaller batches and more statements, and drained slower).
   */
  writing: boolean;
}

interface PendingOutcome {
  ended: AttemptEnded;
  /** Resolves once written: `true` when the write handed a delivery on in the attempt's place. */
  written: (handedOn: boolean) => void;
  failed: (error: unknown) => void;
}

const holder = globalThis as typeof globalThis & { __listingsDeliveryLane?: LaneState };

/** Requests in flight at once in one process unless `maxInFlight` says otherwise. */
export const defaultMaxInFlight = 32;

export async function startDeliveryLane(options: DeliveryLaneOptions): Promise<void> {
  if (holder.__listingsDeliveryLane && !holder.__listingsDeliveryLane.stopped) return;
  const state: LaneState = {
    options: { maxInFlight: defaultMaxInFlight, sweepMs: 60_000, ...options },
    attempts: new Set(),
    requests: 0,
    requestsPerWebhook: new Map(),
    waiting: new Map(),
    again: false,
    stopped: false,
    outcomes: [],
    writing: false,
  };
  holder.__listingsDeliveryLane = state;
  try {
    state.unlisten = await options.database.listen(deliveriesChannel, () => wake(state));
  } catch (error) {
    logger.warn("webhook deliveries: LISTEN failed; in-process wake-ups and the sweep remain", { error });
  }
  wake(state);
}

/**
 * Stops claiming and starting, waits for the attempts in flight, and gives back the deliveries
 * claimed ahead, so that the database can be closed after them.
 */
export async function stopDeliveryLane(): Promise<void> {
  const state = holder.__listingsDeliveryLane;
  if (!state) return;
  state.stopped = true;
  clearTimeout(state.timer);
  clearTimeout(state.refill);
  await state.unlisten?.().catch(() => undefined);
  await state.passing;
  while (state.attempts.size > 0) await Promise.all([...state.attempts]);
  const unstarted = [...state.waiting.values()].flat().map((held) => held.claimed);
  state.waiting.clear();
  await giveBack(state, unstarted);
  holder.__listingsDeliveryLane = undefined;
}

function wake(state: LaneState): void {
  if (state.stopped) return;
  if (state.passing) {
    state.again = true;
    return;
  }
  clearTimeout(state.timer);
  state.passing = pass(state).finally(() => {
    state.passing = undefined;
    // Woken while the pass was reading the next due time: pass again.
    if (state.again) wake(state);
  });
}

async function pass(state: LaneState): Promise<void> {
  const { database, sweepMs } = state.options;
  const db = database.connection;
  let nextInMs = sweepMs;
  try {
    do {
      state.again = false;
      const room = claimLimit(state) - state.attempts.size - waitingCount(state);
      if (room <= 0) break;
      const now = new Date();
      const claimed = await claimDueDeliveries(db, { now, limit: room, perWebhook: maxClaimedPerWebhook });
      for (const one of claimed) hold(state, one, now);
      // A full batch may have left due deliveries behind.
      if (claimed.length === room) state.again = true;
    } while (state.again && !state.stopped);
    state.again = false;
    // While attempts run, the end of each wakes the lane: the next due time matters only when none does.
    // A due delivery left unclaimed is held elsewhere or at its webhook's cap: a second later the lane
    // looks again (another instance may hold it).
    const next = state.attempts.size === 0 ? await nextDeliveryDueAt(db) : null;
    if (next) nextInMs = Math.min(sweepMs, Math.max(1000, next.getTime() - Date.now()));
  } catch (error) {
    logger.error("webhook delivery pass failed; the sweep tries again", { error });
  }
  if (!state.stopped) {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => wake(state), nextInMs).unref();
  }
}

/** Claims held at once: one ahead for each request the process may have in flight. */
const claimLimit = (state: LaneState) => 2 * state.options.maxInFlight;

const waitingCount = (state: LaneState) => [...state.waiting.values()].reduce((count, queue) => count + queue.length, 0);

/** A claimed delivery joins its webhook's turn, and starts at once when a slot is free. */
function hold(state: LaneState, claimed: ClaimedDelivery, claimedAt: Date): void {
  const queue = state.waiting.get(claimed.webhookId) ?? [];
  queue.push({ claimed, claimedAt: claimedAt.getTime() });
  state.waiting.set(claimed.webhookId, queue);
  startWaiting(state);
}

/** Fills the free slots with the deliveries claimed ahead, webhooks taking turns. */
function startWaiting(state: LaneState): void {
  const expired: ClaimedDelivery[] = [];
  for (const webhookId of [...state.waiting.keys()]) {
    if (state.stopped || state.requests >= state.options.maxInFlight) break;
    const queue = state.waiting.get(webhookId)!;
    while (queue.length > 0 && (state.requestsPerWebhook.get(webhookId) ?? 0) < maxInFlightPerWebhook) {
      const held = queue.shift()!;
      if (Date.now() - held.claimedAt > startWithinMs) expired.push(held.claimed);
      else startAttempt(state, held.claimed);
      if (state.requests >= state.options.maxInFlight) break;
    }
    // Last in the turn once served; gone once empty.
    state.waiting.delete(webhookId);
    if (queue.length > 0) state.waiting.set(webhookId, queue);
  }
  if (expired.length > 0) void giveBack(state, expired).then(() => refillSoon(state));
}

function startAttempt(state: LaneState, claimed: ClaimedDelivery): void {
  const now = new Date();
  const { webhookId } = claimed;
  state.requests += 1;
  state.requestsPerWebhook.set(webhookId, (state.requestsPerWebhook.get(webhookId) ?? 0) + 1);
  const attempt: Promise<void> = attemptClaimed({ claimed, now, timeoutMs: state.options.timeoutMs })
    // The slot is free once the receiver has answered: the next delivery claimed ahead goes now,
    // while this outcome is written.
    .finally(() => freeSlot(state, webhookId))
    .then((result) => writeOutcome(state, { claimed, result, now }))
    .catch((error: unknown) => {
      logger.error("webhook delivery attempt not recorded; its lease will end and it is retried", { error });
      return false;
    })
    .then((handedOn) => {
      state.attempts.delete(attempt);
      if (!handedOn) refillSoon(state);
    });
  state.attempts.add(attempt);
}

function freeSlot(state: LaneState, webhookId: string): void {
  state.requests -= 1;
  const left = (state.requestsPerWebhook.get(webhookId) ?? 1) - 1;
  if (left > 0) state.requestsPerWebhook.set(webhookId, left);
  else state.requestsPerWebhook.delete(webhookId);
  startWaiting(state);
}

/**
 * Group commit of outcomes: an attempt ending while no write runs is written at once; those ending
 * meanwhile wait for it and go together in the next statement. An idle lane adds no delay, and a
 * busy one writes one statement for many attempts.
 */
function writeOutcome(state: LaneState, ended: AttemptEnded): Promise<boolean> {
  return new Promise<boolean>((written, failed) => {
    state.outcomes.push({ ended, written, failed });
    if (!state.writing) void writeOutcomes(state);
  });
}

async function writeOutcomes(state: LaneState): Promise<void> {
  state.writing = true;
  while (state.outcomes.length > 0) {
    const batch = state.outcomes.splice(0);
    try {
      const db = state.options.database.connection;
      const ended = batch.map((one) => one.ended);
      if (state.stopped || ended.some(({ result }) => !result.ok)) {
        await recordDeliveryOutcomes(db, ended);
        batch.forEach((one) => one.written(false));
      } else {
        const now = new Date();
        const next = await recordSuccessesAndHandOff(db, { ended, now }).catch(async (error: unknown) => {
          if (!isDeadlock(error)) throw error;
          // A hand-off waits for no claim, but a claim of another instance may still wait for it while
          // holding a row it wants (one it re-checked): then the outcomes go without handing off.
          await recordDeliveryOutcomes(db, ended);
          return [];
        });
        for (const one of next) hold(state, one, now);
        // Each delivery handed on takes the place of one ended attempt of its webhook.
        const handedOn = new Map<string, number>();
        for (const one of next) handedOn.set(one.webhookId, (handedOn.get(one.webhookId) ?? 0) + 1);
        for (const one of batch) {
          const left = handedOn.get(one.ended.claimed.webhookId) ?? 0;
          handedOn.set(one.ended.claimed.webhookId, left - 1);
          one.written(left > 0);
        }
      }
    } catch (error) {
      batch.forEach((one) => one.failed(error));
    }
  }
  state.writing = false;
}

/** Claims the lane will not start (it stops, or they waited too long): due again at once, for any instance. */
async function giveBack(state: LaneState, claimed: ClaimedDelivery[]): Promise<void> {
  await releaseClaims(state.options.database.connection, { claimed, now: new Date() }).catch((error: unknown) =>
    logger.error("webhook deliveries claimed ahead not given back; their lease will end and they are retried", { error }),
  );
}

const isDeadlock = (error: unknown): boolean => {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  return typeof cause === "object" && cause !== null && (cause as { code?: unknown }).code === "40P01";
};

function refillSoon(state: LaneState): void {
  if (state.refill || state.stopped) return;
  state.refill = setTimeout(() => {
    state.refill = undefined;
    wake(state);
  }, refillDelayMs);
}
