import { and, eq, isNull, sql } from "drizzle-orm";
import type { Handle } from "@/db";
import { apiKeys, events } from "@/db/schema";
import { eventBody, type EventBody, type EventType } from "@/lib/domain/event-types";
import { createDeliveries } from "@/lib/domain/webhooks/delivery";

// First key of the two-integer advisory lock space, naming "events of account <hash>". Lock ids of
// the one-bigint form never collide with it (PostgreSQL keeps the two spaces apart).
const accountEventsLock = 0x65767473;

/**
 * The PostgreSQL channel notified, with the account's id as payload, by every transaction that records
 * an event: `GET /events?wait=` waits on it in every instance (`list-events.ts`).
 */
export const eventsChannel = "events";

export interface NewEvent {
  accountId: string;
  type: EventType;
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Writes an event to the outbox inside the caller's transaction, the one that makes the state
 * change, so the change and its event commit or vanish together. Every event of the platform goes
 * through here, so whatever must follow an event (deliveries) belongs here too.
 *
 * Only accounts with a key that is not revoked get events (docs/api.md, Listings API); an expired key still
 * counts, so an integrator renewing its key finds the events in between. Returns null otherwise.
 */
export async function recordEvent(tx: Handle, event: NewEvent): Promise<EventBody | null> {
  // The per-account lock, held until commit, is taken before `seq` is drawn: an account's events
  // then commit in `seq` order, and a reader paging with `after` never passes one that would commit
  // later with a smaller `seq`. It is only taken when a key exists (the select yields a row). The
  // same row queues the NOTIFY of `eventsChannel`, without a round trip of its own: PostgreSQL sends
  // it at commit (once per transaction and account, however many events), never after a rollback.
  const [keyed] = await tx
    .select({
      locked: sql`pg_advisory_xact_lock(${accountEventsLock}, hashtext(${event.accountId}))`,
      notified: sql`pg_notify(${eventsChannel}, ${event.accountId})`,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, event.accountId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!keyed) return null;
  const [row] = await tx
    .insert(events)
    .values({ accountId: event.accountId, type: event.type, data: event.data, createdAt: event.now })
    .returning();
  await createDeliveries({ tx, event: row });
  return eventBody(row);
}
