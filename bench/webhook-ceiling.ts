import { performance } from "node:perf_hooks";
import postgres, { type Sql } from "postgres";
import type { events } from "@/db/schema";
import { openSecret } from "@/lib/base/secret-box";
import { eventId } from "@/lib/domain/event-types";
import { defaultMaxInFlight, deliveryBody, deliveryLeaseSeconds, maxInFlightPerWebhook } from "@/lib/domain/webhooks/delivery";
import { signedPost, type BareRequest } from "./webhook-post";

/**
 * The webhook benchmark's ceiling lane (`bench/webhook-sender.ts ceiling`): the least work that makes
 * each delivery as durable as the product's lane makes it, done with plain postgres.js and the bare
 * sender's POST, as the ceiling app is the API's database work in one bare handler.
 *
 * - A claim: due deliveries, in the due index's order, become `delivering`, their attempt counted
 *   and a lease set, with their webhook's URL and secret and their event, committed before any of
 *   their requests. It claims ahead as the lane does (four times the requests it may have in flight).
 * - The request: signed and POSTed as the bare sender does, as many in flight as the lane
 *   (`defaultMaxInFlight` in all, `maxInFlightPerWebhook` per webhook), the body built and the
 *   secret opened as the product does.
 * - The outcome: `succeeded` (or due again in a minute), with the status, the duration and the
 *   headers sent, committed after the answer; attempts ending while a write runs go together in the
 *   next (the lane's group commit).
 *
 * Left out, as the product's own rather than durability's: the per-webhook cap across instances
 * (the claim's advisory lock and count of deliveries in flight), the lost-attempt check, the hand-off
 * of slots, the retry schedule, the webhooks' health, LISTEN, the spans and the address check.
 */

interface Claimed {
  id: string;
  webhookId: string;
  attempt: number;
  request: BareRequest;
}

interface Ended {
  id: string;
  attempt: number;
  status: number | null;
  ms: number;
  headers: Record<string, string>;
}

interface ClaimRow {
  id: string;
  webhook_id: string;
  attempts: number;
  connection_id: number | null;
  url: string;
  secret_sealed: string;
  seq: string;
  type: string;
  created_at: Date;
  data: Record<string, unknown>;
}

/** Claimed and not yet ended, at most (the lane's `claimLimit`). */
const claimAhead = 4 * defaultMaxInFlight;

export class CeilingLane {
  /** The same pool size as the product's client; unnamed statements, planned at each run as the lane's are. */
  static client(url: string): Sql {
    return postgres(url, { max: 10, prepare: false, onnotice: () => {} });
  }

  private readonly waiting = new Map<string, Claimed[]>();
  private readonly busy = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private inFlight = 0;
  private claiming?: Promise<void>;
  private drained = false;
  private stopped = false;
  private ended: Ended[] = [];
  private writing?: Promise<void>;

  constructor(private readonly sql: Sql) {}

  /** Starts claiming; the bench commits the whole backlog before, so the lane stops claiming once a claim comes back short. */
  start(): Promise<void> {
    this.pump();
    return Promise.resolve();
  }

  /** Stops claiming, waits for the attempts and their outcomes, and gives back what it had claimed and not started. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.claiming;
    while (this.attempts.size > 0) await Promise.all([...this.attempts]);
    while (this.writing) await this.writing;
    const unstarted = [...this.waiting.values()].flat();
    this.waiting.clear();
    if (unstarted.length > 0) {
      await this.sql`
        update webhook_deliveries set status = 'pending', attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
        where id = any(${this.sql.array(unstarted.map((one) => one.id))}) and status = 'delivering'`;
    }
  }

  private held(): number {
    let held = this.inFlight;
    for (const queue of this.waiting.values()) held += queue.length;
    return held;
  }

  /** Starts what the slots allow, webhooks taking turns, and claims more once half of what is held has gone. */
  private pump(): void {
    if (this.stopped) return;
    for (const [webhookId, queue] of this.waiting) {
      while (queue.length > 0 && this.inFlight < defaultMaxInFlight && (this.busy.get(webhookId) ?? 0) < maxInFlightPerWebhook) {
        this.attempt(queue.shift()!);
      }
    }
    if (!this.drained && !this.claiming && this.held() <= claimAhead / 2) {
      this.claiming = this.claim(claimAhead - this.held())
        .catch((error: unknown) => {
          // The bench's wait for receipts then comes up short and says so.
          this.drained = true;
          console.error("ceiling lane: claim failed", error);
        })
        .finally(() => {
          this.claiming = undefined;
          this.pump();
        });
    }
  }

  private async claim(limit: number): Promise<void> {
    const rows = await this.sql<ClaimRow[]>`
      with chosen as (
        select id from webhook_deliveries
        where status in ('pending', 'delivering') and next_attempt_at <= now()
        order by next_attempt_at
        limit ${limit}
        for update skip locked)
      update webhook_deliveries d
      set status = 'delivering', attempts = d.attempts + 1,
          next_attempt_at = now() + ${`${deliveryLeaseSeconds} seconds`}::interval, updated_at = now()
      from chosen c, webhooks w, events e
      where d.id = c.id and w.id = d.webhook_id and e.seq = d.event_seq
      returning d.id, d.webhook_id, d.attempts, d.connection_id, w.url, w.secret_sealed, e.seq, e.type, e.created_at, e.data`;
    if (rows.length < limit) this.drained = true;
    for (const row of rows) {
      const event = { seq: Number(row.seq), type: row.type, createdAt: row.created_at, data: row.data } as typeof events.$inferSelect;
      const request: BareRequest = {
        receiver: 0,
        url: row.url,
        secret: openSecret(row.webhook_id, row.secret_sealed),
        id: eventId(event.seq),
        body: deliveryBody(event, row.connection_id),
      };
      const queue = this.waiting.get(row.webhook_id) ?? [];
      queue.push({ id: row.id, webhookId: row.webhook_id, attempt: row.attempts, request });
      this.waiting.set(row.webhook_id, queue);
    }
  }

  private attempt(claimed: Claimed): void {
    const { webhookId } = claimed;
    this.inFlight += 1;
    this.busy.set(webhookId, (this.busy.get(webhookId) ?? 0) + 1);
    const started = performance.now();
    const attempt = signedPost(claimed.request, false).then(({ status, headers }) => {
      this.inFlight -= 1;
      this.busy.set(webhookId, this.busy.get(webhookId)! - 1);
      this.ended.push({ id: claimed.id, attempt: claimed.attempt, status, ms: Math.round(performance.now() - started), headers });
      this.write();
      this.pump();
    });
    this.attempts.add(attempt);
    void attempt.finally(() => this.attempts.delete(attempt));
  }

  /** Writes the ended attempts' outcomes, one statement at a time, each for all those ended meanwhile. */
  private write(): void {
    if (this.writing) return;
    this.writing = (async () => {
      while (this.ended.length > 0) {
        const batch = this.ended.splice(0);
        await this.sql`
          update webhook_deliveries d
          set status = case when v.status between 200 and 299 then 'succeeded' else 'pending' end,
              next_attempt_at = case when v.status between 200 and 299 then null else now() + interval '1 minute' end,
              last_status_code = v.status,
              last_error = case when v.status is null then 'connection_failed' when v.status between 200 and 299 then null else 'status_not_2xx' end,
              last_duration_ms = v.ms, last_response_excerpt = '', last_request_headers = v.headers, updated_at = now()
          from jsonb_to_recordset(${JSON.stringify(batch)}::text::jsonb) as v(id text, attempt int, status int, ms int, headers jsonb)
          where d.id = v.id and d.status = 'delivering' and d.attempts = v.attempt`;
      }
    })()
      .catch((error: unknown) => console.error("ceiling lane: outcomes not written", error))
      .finally(() => {
        this.writing = undefined;
      });
  }
}
