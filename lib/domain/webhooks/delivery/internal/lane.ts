import type { Database } from "@/db";
import { postgresError, sqlState } from "@/db/errors";
import { logger } from "@/lib/base/logger";
import { attemptClaimed } from "./attempt";
import { deliveriesChannel } from "./create";
import { recordDeliveryOutcomes, recordSuccessesAndHandOff, type AttemptEnded } from "./outcomes";
import {
  claimDueDeliveries,
  deliveryLeaseSeconds,
  maxClaimedPerWebhook,
  maxInFlightPerWebhook,
  nextDeliveryDueAt,
  releaseClaims,
  type ClaimedDelivery,
} from "./queue";

export interface DeliveryLaneOptions {
  database: Database;
  /** Attempts in flight at once in this process. */
  maxInFlight?: number;
  /** The safety-net sweep's period. */
  sweepMs?: number;
  /** The receiver's time-out (tests shorten it). */
  timeoutMs?: number;
}

/** Requests in flight at once in one process unless `maxInFlight` says otherwise. */
export const defaultMaxInFlight = 32;

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

interface PendingOutcome {
  ended: AttemptEnded;
  /** Resolves once written: `true` when the write handed a delivery on in the attempt's place. */
  written: (handedOn: boolean) => void;
  failed: (error: unknown) => void;
}

/**
 * The embedded runner's webhook deliveries, one lane per process (`start`, then `stop`, which drains
 * it; a stopped lane stays stopped). It claims due deliveries and runs their attempts without
 * waiting for one another, up to `maxInFlight` requests at once and `maxInFlightPerWebhook` per
 * webhook, so one slow receiver never holds up the others.
 *
 * It claims ahead, up to `maxClaimedPerWebhook` per webhook, those beyond the free slots waiting in
 * the lane: when a receiver answers, its slot goes on at once to its webhook's next claimed delivery
 * while the answer's outcome is written. Outcomes are group-committed: an attempt ending while no
 * write runs is written at once, those ending meanwhile go together in the next statement (one write
 * at a time: two at once made smaller batches and drained slower). When every attempt of a batch
 * succeeded, the same statement hands each one's slot on to its webhook's next due delivery
 * (`recordSuccessesAndHandOff`), so a busy slot never waits for a claim between two requests.
 *
 * A pass (a claim) starts when woken (the NOTIFY of a commit, on every listening instance), when an
 * attempt ends that handed nothing on, when the next retry or lease end falls due, and at least
 * every `sweepMs` as a safety net.
 */
export class DeliveryLane {
  private readonly options: Required<Omit<DeliveryLaneOptions, "timeoutMs">> & { timeoutMs?: number };
  /** Attempts whose outcome is not written yet (the request in flight, or its outcome being written). */
  private readonly attempts = new Set<Promise<void>>();
  /** Requests in flight, in all and per webhook. */
  private requests = 0;
  private readonly requestsPerWebhook = new Map<string, number>();
  /** Claimed ahead, per webhook, waiting for a free slot (oldest first; webhooks take turns). */
  private readonly waiting = new Map<string, Held[]>();
  /** Ended attempts waiting for the outcome write in progress; written together by the next one. */
  private readonly pendingOutcomes: PendingOutcome[] = [];
  private writing = false;
  private timer?: NodeJS.Timeout;
  private refill?: NodeJS.Timeout;
  private passing?: Promise<void>;
  private again = false;
  private starting?: Promise<void>;
  private stopped = false;
  private unlisten?: () => Promise<void>;

  constructor(options: DeliveryLaneOptions) {
    this.options = { maxInFlight: defaultMaxInFlight, sweepMs: 60_000, ...options };
  }

  /** Listens for commits' wake-ups and starts the first pass (it resolves before that pass ends). Once. */
  start(): Promise<void> {
    this.starting ??= this.listenAndWake();
    return this.starting;
  }

  /**
   * Stops claiming and starting, gives back the deliveries claimed ahead at once (another instance
   * may start them while this one's attempts end), then waits for the attempts in flight, so that
   * the database can be closed after them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.refill);
    await this.starting;
    await this.unlisten?.().catch(() => undefined);
    await this.passing;
    await this.giveBackWaiting();
    while (this.attempts.size > 0) await Promise.all([...this.attempts]);
    // An outcome's write that began before the stop may have handed a delivery on meanwhile.
    await this.giveBackWaiting();
  }

  /** Resolves once the pass in progress, if any, has ended (the fault tests' worker waits for the first). */
  async passEnded(): Promise<void> {
    await this.passing;
  }

  /** Starts a pass, or another right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.passing = this.pass().finally(() => {
      this.passing = undefined;
      // Woken while the pass was reading the next due time: pass again.
      if (this.again) this.wake();
    });
  }

  private async listenAndWake(): Promise<void> {
    if (this.stopped) return;
    try {
      this.unlisten = await this.options.database.listen(deliveriesChannel, () => this.wake());
    } catch (error) {
      logger.warn("webhook deliveries: LISTEN failed; in-process wake-ups and the sweep remain", { error });
    }
    this.wake();
  }

  private async pass(): Promise<void> {
    const { database, sweepMs, maxInFlight } = this.options;
    const db = database.connection;
    let nextInMs = sweepMs;
    try {
      do {
        this.again = false;
        // Three claimed ahead for each request the process may have in flight (`maxClaimedPerWebhook`).
        const waitingCount = [...this.waiting.values()].reduce((count, queue) => count + queue.length, 0);
        const room = 4 * maxInFlight - this.attempts.size - waitingCount;
        if (room <= 0) break;
        const now = new Date();
        const claimed = await claimDueDeliveries(db, { now, limit: room, perWebhook: maxClaimedPerWebhook });
        for (const one of claimed) this.hold(one, now);
        // A full batch may have left due deliveries behind.
        if (claimed.length === room) this.again = true;
      } while (this.again && !this.stopped);
      this.again = false;
      // While attempts run, the end of each wakes the lane: the next due time matters only when none does.
      // A due delivery left unclaimed is held elsewhere or at its webhook's cap: a second later the lane
      // looks again (another instance may hold it).
      const next = this.attempts.size === 0 ? await nextDeliveryDueAt(db) : null;
      if (next) nextInMs = Math.min(sweepMs, Math.max(1000, next.getTime() - Date.now()));
    } catch (error) {
      logger.error("webhook delivery pass failed; the sweep tries again", { error });
    }
    if (!this.stopped) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.wake(), nextInMs).unref();
    }
  }

  /** A claimed delivery joins its webhook's turn, and starts at once when a slot is free. */
  private hold(claimed: ClaimedDelivery, claimedAt: Date): void {
    const queue = this.waiting.get(claimed.webhookId) ?? [];
    queue.push({ claimed, claimedAt: claimedAt.getTime() });
    this.waiting.set(claimed.webhookId, queue);
    this.startWaiting();
  }

  /** Fills the free slots with the deliveries claimed ahead, webhooks taking turns. */
  private startWaiting(): void {
    const { maxInFlight } = this.options;
    const expired: ClaimedDelivery[] = [];
    for (const webhookId of [...this.waiting.keys()]) {
      if (this.stopped || this.requests >= maxInFlight) break;
      const queue = this.waiting.get(webhookId)!;
      while (queue.length > 0 && (this.requestsPerWebhook.get(webhookId) ?? 0) < maxInFlightPerWebhook) {
        const held = queue.shift()!;
        if (Date.now() - held.claimedAt > startWithinMs) expired.push(held.claimed);
        else this.startAttempt(held.claimed);
        if (this.requests >= maxInFlight) break;
      }
      // Last in the turn once served; gone once empty.
      this.waiting.delete(webhookId);
      if (queue.length > 0) this.waiting.set(webhookId, queue);
    }
    if (expired.length > 0) void this.giveBack(expired).then(() => this.refillSoon());
  }

  private startAttempt(claimed: ClaimedDelivery): void {
    const now = new Date();
    const { webhookId } = claimed;
    this.requests += 1;
    this.requestsPerWebhook.set(webhookId, (this.requestsPerWebhook.get(webhookId) ?? 0) + 1);
    const attempt: Promise<void> = attemptClaimed({ claimed, now, timeoutMs: this.options.timeoutMs })
      // The slot is free once the receiver has answered: the next delivery claimed ahead goes now,
      // while this outcome is written.
      .finally(() => this.freeSlot(webhookId))
      .then(
        (result) => new Promise<boolean>((written, failed) => void this.writeOutcome({ ended: { claimed, result, now }, written, failed })),
      )
      .catch((error: unknown) => {
        logger.error("webhook delivery attempt not recorded; its lease will end and it is retried", { error });
        return false;
      })
      .then((handedOn) => {
        this.attempts.delete(attempt);
        if (!handedOn) this.refillSoon();
      });
    this.attempts.add(attempt);
  }

  private freeSlot(webhookId: string): void {
    this.requests -= 1;
    const left = (this.requestsPerWebhook.get(webhookId) ?? 1) - 1;
    if (left > 0) this.requestsPerWebhook.set(webhookId, left);
    else this.requestsPerWebhook.delete(webhookId);
    this.startWaiting();
  }

  /** Queues an ended attempt's outcome, and writes the queue unless a write runs (it goes on to the queue then). */
  private async writeOutcome(outcome: PendingOutcome): Promise<void> {
    this.pendingOutcomes.push(outcome);
    if (this.writing) return;
    this.writing = true;
    while (this.pendingOutcomes.length > 0) {
      const batch = this.pendingOutcomes.splice(0);
      await this.writeBatch(batch).catch((error: unknown) => batch.forEach((one) => one.failed(error)));
    }
    this.writing = false;
  }

  private async writeBatch(batch: PendingOutcome[]): Promise<void> {
    const db = this.options.database.connection;
    const ended = batch.map((one) => one.ended);
    // A lane stopping hands nothing on: it would only give the claims back.
    if (this.stopped || ended.some(({ result }) => !result.ok)) {
      await recordDeliveryOutcomes(db, ended);
      batch.forEach((one) => one.written(false));
      return;
    }
    const now = new Date();
    const next = await recordSuccessesAndHandOff(db, { ended, now }).catch(async (error: unknown) => {
      if (postgresError(error)?.code !== sqlState.deadlockDetected) throw error;
      // A hand-off waits for no claim, but a claim of another instance may still wait for it while
      // holding a row it wants (one it re-checked): then the outcomes go without handing off.
      await recordDeliveryOutcomes(db, ended);
      return [];
    });
    for (const one of next) this.hold(one, now);
    // Each delivery handed on takes the place of one ended attempt of its webhook.
    const handedOn = new Map<string, number>();
    for (const one of next) handedOn.set(one.webhookId, (handedOn.get(one.webhookId) ?? 0) + 1);
    for (const one of batch) {
      const left = handedOn.get(one.ended.claimed.webhookId) ?? 0;
      handedOn.set(one.ended.claimed.webhookId, left - 1);
      one.written(left > 0);
    }
  }

  private async giveBackWaiting(): Promise<void> {
    const unstarted = [...this.waiting.values()].flat().map((held) => held.claimed);
    this.waiting.clear();
    if (unstarted.length > 0) await this.giveBack(unstarted);
  }

  /** Claims the lane will not start (it stops, or they waited too long): due again at once, for any instance. */
  private async giveBack(claimed: ClaimedDelivery[]): Promise<void> {
    await releaseClaims(this.options.database.connection, { claimed, now: new Date() }).catch((error: unknown) =>
      logger.error("webhook deliveries claimed ahead not given back; their lease will end and they are retried", { error }),
    );
  }

  private refillSoon(): void {
    if (this.refill || this.stopped) return;
    this.refill = setTimeout(() => {
      this.refill = undefined;
      this.wake();
    }, refillDelayMs);
  }
}
