import type { Database } from "@/db";
import { postgresError, sqlState } from "@/db/errors";
import { recordDeliveryOutcomes, recordSuccessesAndHandOff, type ClaimedDelivery } from "@/lib/domain/webhooks/deliver";
import type { AttemptEnded } from "@/lib/domain/webhooks/outcomes";

/**
 * The delivery lane's group commit of outcomes: an attempt ending while no write runs is written at
 * once; those ending meanwhile wait for it and go together in the next statement. An idle lane adds
 * no delay, and a busy one writes one statement for many attempts. Writes run one at a time (two at
 * once made smaller batches and more statements, and drained slower).
 *
 * When every attempt of a batch succeeded (and the lane still runs), the same statement hands each
 * one's slot on to its webhook's next due delivery (`recordSuccessesAndHandOff`): the lane is given
 * each delivery so claimed, before the attempts' writes resolve.
 */

export interface OutcomeWriterLane {
  database: Database;
  /** A lane stopping hands nothing on: it would only give the claims back. */
  stopped(): boolean;
  /** A delivery the write claimed in an ended attempt's place, and when. */
  handedOn(claimed: ClaimedDelivery, claimedAt: Date): void;
}

interface PendingOutcome {
  ended: AttemptEnded;
  /** Resolves once written: `true` when the write handed a delivery on in the attempt's place. */
  written: (handedOn: boolean) => void;
  failed: (error: unknown) => void;
}

export class OutcomeWriter {
  /** Ended attempts waiting for the write in progress; written together by the next one. */
  private readonly pending: PendingOutcome[] = [];
  private writing = false;

  constructor(private readonly lane: OutcomeWriterLane) {}

  /** Writes an ended attempt's outcome; resolves to `true` when a delivery was handed on in its place. */
  write(ended: AttemptEnded): Promise<boolean> {
    return new Promise<boolean>((written, failed) => {
      this.pending.push({ ended, written, failed });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.writeBatch(batch);
      } catch (error) {
        batch.forEach((one) => one.failed(error));
      }
    }
    this.writing = false;
  }

  private async writeBatch(batch: PendingOutcome[]): Promise<void> {
    const db = this.lane.database.connection;
    const ended = batch.map((one) => one.ended);
    if (this.lane.stopped() || ended.some(({ result }) => !result.ok)) {
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
    for (const one of next) this.lane.handedOn(one, now);
    // Each delivery handed on takes the place of one ended attempt of its webhook.
    const handedOn = new Map<string, number>();
    for (const one of next) handedOn.set(one.webhookId, (handedOn.get(one.webhookId) ?? 0) + 1);
    for (const one of batch) {
      const left = handedOn.get(one.ended.claimed.webhookId) ?? 0;
      handedOn.set(one.ended.claimed.webhookId, left - 1);
      one.written(left > 0);
    }
  }
}
