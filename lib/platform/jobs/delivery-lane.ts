import type { Database } from "@/db";
import {
  attemptClaimed,
  claimDueDeliveries,
  deliveriesChannel,
  nextDeliveryDueAt,
  recordDeliveryOutcomes,
  recordSuccessesAndHandOff,
  type ClaimedDelivery,
} from "@/lib/domain/webhooks/deliver";
import type { AttemptEnded } from "@/lib/domain/webhooks/outcomes";
import { logger } from "@/lib/platform/logger";

/**
 * The embedded runner's webhook deliveries. They do not go through the jobs table: a delivery row
 * is its own job (`lib/domain/webhooks/deliver.ts`). The lane claims due deliveries and runs their
 * attempts without waiting for one another, up to `maxInFlight` at once in this process (and the
 * per-webhook cap of the claim), so one slow receiver never holds up the others. A pass starts:
 * - when woken: the NOTIFY that the event's transaction sends reaches every listening instance at
 *   its commit (this process and the others through LISTEN on PostgreSQL; in process on PGlite);
 * - when an attempt ends (room freed, the webhook's cap too), unless the outcome's write handed its
 *   slot on: a batch of successes claims each webhook's next due deliveries in the same statement;
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
 * Outcome writes at once. Each waits for its commit to reach the disk: with two, attempts ending
 * during one write go in the other instead of waiting for it, and PostgreSQL flushes both together.
 * Two writes never wait for each other: their outcomes are different rows, and each hands off only
 * rows it could lock.
 */
const outcomeWriters = 1;

interface LaneState {
  options: Required<Omit<DeliveryLaneOptions, "timeoutMs">> & { timeoutMs?: number };
  inFlight: Set<Promise<void>>;
  timer?: NodeJS.Timeout;
  refill?: NodeJS.Timeout;
  passing?: Promise<void>;
  again: boolean;
  stopped: boolean;
  unlisten?: () => Promise<void>;
  /** Ended attempts waiting for the outcome write in progress; written together by the next one. */
  outcomes: PendingOutcome[];
  /** Outcome writes running (at most `outcomeWriters`). */
  writers: number;
}

interface PendingOutcome {
  ended: AttemptEnded;
  /** Resolves once written: `true` when the write handed the attempt's slot to another delivery. */
  written: (handedOn: boolean) => void;
  failed: (error: unknown) => void;
}

const holder = globalThis as typeof globalThis & { __listingsDeliveryLane?: LaneState };

/** Attempts in flight at once in one process unless `maxInFlight` says otherwise. */
export const defaultMaxInFlight = 32;

export async function startDeliveryLane(options: DeliveryLaneOptions): Promise<void> {
  if (holder.__listingsDeliveryLane && !holder.__listingsDeliveryLane.stopped) return;
  const state: LaneState = {
    options: { maxInFlight: defaultMaxInFlight, sweepMs: 60_000, ...options },
    inFlight: new Set(),
    again: false,
    stopped: false,
    outcomes: [],
    writers: 0,
  };
  holder.__listingsDeliveryLane = state;
  try {
    state.unlisten = await options.database.listen(deliveriesChannel, () => wake(state));
  } catch (error) {
    logger.warn("webhook deliveries: LISTEN failed; in-process wake-ups and the sweep remain", { error });
  }
  wake(state);
}

/** Stops claiming, and waits for the attempts in flight so that the database can be closed after them. */
export async function stopDeliveryLane(): Promise<void> {
  const state = holder.__listingsDeliveryLane;
  if (!state) return;
  state.stopped = true;
  clearTimeout(state.timer);
  clearTimeout(state.refill);
  await state.unlisten?.().catch(() => undefined);
  await state.passing;
  await Promise.all([...state.inFlight]);
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
  const { database, maxInFlight, sweepMs } = state.options;
  const db = database.connection;
  let nextInMs = sweepMs;
  try {
    do {
      state.again = false;
      const room = maxInFlight - state.inFlight.size;
      if (room <= 0) break;
      const now = new Date();
      const claimed = await claimDueDeliveries(db, { now, limit: room });
      for (const one of claimed) startAttempt(state, one, now);
      // A full batch may have left due deliveries behind.
      if (claimed.length === room) state.again = true;
    } while (state.again && !state.stopped);
    state.again = false;
    // While attempts run, the end of each wakes the lane: the next due time matters only when none does.
    // A due delivery left unclaimed is held elsewhere or at its webhook's cap: a second later the lane
    // looks again (another instance may hold it).
    const next = state.inFlight.size === 0 ? await nextDeliveryDueAt(db) : null;
    if (next) nextInMs = Math.min(sweepMs, Math.max(1000, next.getTime() - Date.now()));
  } catch (error) {
    logger.error("webhook delivery pass failed; the sweep tries again", { error });
  }
  if (!state.stopped) {
    clearTimeout(state.timer);
    state.timer = setTimeout(() => wake(state), nextInMs).unref();
  }
}

function startAttempt(state: LaneState, claimed: ClaimedDelivery, now: Date): void {
  const attempt: Promise<void> = attemptClaimed({ claimed, now, timeoutMs: state.options.timeoutMs })
    .then((result) => writeOutcome(state, { claimed, result, now }))
    .catch((error: unknown) => {
      logger.error("webhook delivery attempt not recorded; its lease will end and it is retried", { error });
      return false;
    })
    .then((handedOn) => {
      state.inFlight.delete(attempt);
      if (!handedOn) refillSoon(state);
    });
  state.inFlight.add(attempt);
}

/**
 * Group commit of outcomes: an attempt ending while fewer than `outcomeWriters` writes run is written at once; those ending
 * meanwhile wait for it and go together in the next statement. An idle lane adds no delay, and a
 * busy one writes one statement for many attempts.
 */
function writeOutcome(state: LaneState, ended: AttemptEnded): Promise<boolean> {
  return new Promise<boolean>((written, failed) => {
    state.outcomes.push({ ended, written, failed });
    if (state.writers < outcomeWriters) void writeOutcomes(state);
  });
}

async function writeOutcomes(state: LaneState): Promise<void> {
  state.writers += 1;
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
        for (const one of next) startAttempt(state, one, now);
        // Each delivery handed on takes the slot of one attempt of its webhook that ended.
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
  state.writers -= 1;
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
