import { sql } from "drizzle-orm";
import { resultRows, type Handle } from "@/db";
import type { DispatchedDelivery } from "./delivery-dispatch";
import { oauthConnections, webhookDeliveries, webhooks } from "@/db/schema";
import { idPrefixes } from "@/lib/base/ids";

/** The PostgreSQL channel notified when deliveries are committed (LISTEN/NOTIFY wakes every instance's runner). */
export const deliveriesChannel = "webhook_deliveries";

export interface RecordedEvent {
  seq: number;
  accountId: string;
  type: string;
  createdAt: Date;
}

/**
 * Makes the deliveries of an event that has just been written to the outbox, in the transaction
 * that wrote it (`recordEvent`): they commit with the event or not at all, so no event is lost
 * between the change and its webhooks. One delivery per active webhook subscribed to the type:
 * the account's own webhooks, and the webhooks of the apps connected to the account (connection not
 * ended), those with the connection's id. `recordEvent` has already applied the gate (no
 * event without a key of the account), so every event that gets here may be delivered.
 *
 * When it makes any, it notifies `deliveriesChannel` (once per delivery, which PostgreSQL folds into
 * one notification per transaction and delivers at commit), so every instance's delivery runner wakes
 * right after the event is committed, never before. Returns the deliveries, for a dispatcher to start
 * them at commit where no runner listens (Inngest).
 *
 * One statement, whatever the number of webhooks; each delivery's id is drawn by PostgreSQL (16
 * hexadecimal digits of a random UUID's hash, within the id alphabet).
 */
export async function fanOutEvent({ tx, event }: { tx: Handle; event: RecordedEvent }): Promise<DispatchedDelivery[]> {
  const w = webhooks;
  const c = oauthConnections;
  const at = event.createdAt.toISOString();
  const result = await tx.execute(sql`
    with inserted as (
      insert into ${webhookDeliveries} (id, webhook_id, event_seq, connection_id, next_attempt_at, created_at, updated_at)
      select ${`${idPrefixes.webhookDelivery}_`} || left(md5(gen_random_uuid()::text), 16), target.webhook_id, ${event.seq},
             target.connection_id, ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from (
        select ${w.id} as webhook_id, null::integer as connection_id
        from ${w}
        where ${w.accountId} = ${event.accountId} and ${w.clientId} is null and ${w.active} and ${event.type} = any(${w.eventTypes})
        union all
        select ${w.id}, ${c.id}
        from ${c} join ${w} on ${w.clientId} = ${c.clientId}
        where ${c.accountId} = ${event.accountId} and ${c.disconnectedAt} is null and ${w.active} and ${event.type} = any(${w.eventTypes})
      ) as target
      returning id, webhook_id
    )
    select id, webhook_id as "webhookId", pg_notify(${deliveriesChannel}, '') from inserted`);
  return resultRows<DispatchedDelivery & { pg_notify: unknown }>(result).map(({ id, webhookId }) => ({ id, webhookId }));
}
