import type { Database } from "@/db";
import {
  attemptClaimed,
  claimDueDeliveries,
  deliveriesChannel,
  deliveryLeaseSeconds,
  maxClaimedPerWebhook,
  maxInFlightPerWebhook,
  nextDeliveryDueAt,
  releaseClaims,
  type ClaimedDelivery,
} from "@/lib/domain/webhooks/deliver";
import { logger } from "@/lib/base/logger";
import { OutcomeWriter } from "./delivery-outcomes";

/**
 * The embedded runner's webhook deliveries. They do not go through the jobs table: a delivery row
 * is its own job (`lib/domain/webhooks/deliver.ts`). The lane claims due deliveries and runs their
 * attempts without waiting for one another, up to `maxInFlight` requests at once in this process
 * and `maxInFlightPerWebhook` per webhook, so one slow receiver never holds up the others.
 *
 * It claims ahead: up to `maxClaimedPerWebhook` deliveries per webhook (four times the requests), those
 * beyond the free slots waiting in the lane. When a receiver answers, its slot goes on at once to
 * its webhook's next claimed delivery while the answer's outcome is written; the write hands a
 * newly claimed delivery on to the lane in the ended one's place (`delivery-outcomes.ts`). A slot
 * thus never waits for the database between two requests. Claims the lane could not start are
 * given back when it stops.
 *
 * A pass (a claim) starts:
 * - when woken: the NOTIFY that the event's transaction sends reaches every listening instance at
 *   its commit (this process and the others through LISTEN on PostgreSQL; in process on PGlite);
 * - when an attempt ends, unless the outcome's write handed a delivery on in its place;
 * - when the next retry or lease end falls due, and at least every `sweepMs` as a safety net.
 *
 * One lane per process, made and started by the job runner (`runner.ts`): `start`, then `stop`,
 * which drains it. A stopped lane stays stopped; starting again takes a new one.
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

export class DeliveryLane {
  private readonly options: Required<Omit<DeliveryLaneOptions, "timeoutMs">> & { timeoutMs?: number };
  private readonly outcomes: OutcomeWriter;
  /** Attempts whose outcome is not written yet (the request in flight, or its outcome being written). */
  private readonly attempts = new Set<Promise<void>>();
  /** Requests in flight, in all and per webhook. */
  private requests = 0;
  private readonly requestsPerWebhook = new Map<string, number>();
  /** Claimed ahead, per webhook, waiting for a free slot (oldest first; webhooks take turns). */
  private readonly waiting = new Map<string, Held[]>();
  private timer?: NodeJS.Timeout;
  private refill?: NodeJS.Timeout;
  private passing?: Promise<void>;
  private again = false;
  private starting?: Promise<void>;
  private stopped = false;
  private unlisten?: () => Promise<void>;

  constructor(options: DeliveryLaneOptions) {
    this.options = { maxInFlight: defaultMaxInFlight, sweepMs: 60_000, ...options };
    this.outcomes = new OutcomeWriter({
      database: this.options.database,
      stopped: () => this.stopped,
      handedOn: (claimed, claimedAt) => this.hold(claimed, claimedAt),
    });
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

  private async giveBackWaiting(): Promise<void> {
    const unstarted = [...this.waiting.values()].flat().map((held) => held.claimed);
    this.waiting.clear();
    if (unstarted.length > 0) await this.giveBack(unstarted);
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
    const { database, sweepMs } = this.options;
    const db = database.connection;
    let nextInMs = sweepMs;
    try {
      do {
        this.again = false;
        const room = this.claimLimit() - this.attempts.size - this.waitingCount();
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

  /** Claims held at once: three ahead for each request the process may have in flight (`maxClaimedPerWebhook`). */
  private claimLimit(): number {
    return 4 * this.options.maxInFlight;
  }

  private waitingCount(): number {
    return [...this.waiting.values()].reduce((count, queue) => count + queue.length, 0);
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
      .then((result) => this.outcomes.write({ claimed, result, now }))
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
