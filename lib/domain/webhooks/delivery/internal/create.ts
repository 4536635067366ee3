import { sql } from "drizzle-orm";
import { resultRows, type Handle } from "@/db";
import { oauthConnections, webhookDeliveries, webhooks } from "@/db/schema";
import { afterCommit } from "@/lib/base/context";
import { idPrefixes } from "@/lib/base/ids";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";

/** The PostgreSQL channel notified when deliveries are committed (LISTEN/NOTIFY wakes every instance's lane). */
export const deliveriesChannel = "webhook_deliveries";

/** A committed delivery, as a runner that is told about work (Inngest) needs it to start the delivery's run. */
export interface DispatchedDelivery {
  id: string;
  webhookId: string;
}

/**
 * Starts the runs of committed deliveries on a runner that is told about work (Inngest), so a
 * delivery starts at its event's commit there too; the embedded lane needs none (`NOTIFY` wakes it).
 * Registered by whoever knows that runner, so the domain never depends on it.
 */
export interface DeliveryDispatcher {
  dispatch(deliveries: readonly DispatchedDelivery[]): Promise<void>;
}

const registered = processSlot<DeliveryDispatcher>("deliveryDispatcher");

/** Sets (or, with undefined, removes) the process's delivery dispatcher. */
export const registerDeliveryDispatcher = (dispatcher: DeliveryDispatcher | undefined): void => registered.set(dispatcher);

/**
 * Makes the deliveries of an event just written to the outbox, in the transaction that wrote it
 * (`recordEvent`): they commit with the event or not at all, so no event is lost between the change
 * and its webhooks. One delivery per active webhook subscribed to the type: the account's own
 * webhooks, and the webhooks of the apps connected to the account (connection not ended), those with
 * the connection's id. `recordEvent` has applied the gate (no event without a key of the account).
 *
 * One statement, whatever the number of webhooks; each delivery's id is drawn by PostgreSQL (16
 * hexadecimal digits of a random UUID's hash, within the id alphabet). It notifies `deliveriesChannel`
 * once per delivery, which PostgreSQL folds into one notification delivered at commit, so every
 * instance's lane wakes right after the commit, never before. A registered dispatcher is handed the
 * deliveries after the commit; one that fails loses nothing: the delivery sweep sends them within a minute.
 */
export async function createDeliveries({
  tx,
  event,
}: {
  tx: Handle;
  event: { seq: number; accountId: string; type: string; createdAt: Date };
}) {
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
  const deliveries = resultRows<DispatchedDelivery>(result).map(({ id, webhookId }) => ({ id, webhookId }));
  if (deliveries.length === 0 || !registered.get()) return;
  afterCommit(tx, async () => {
    try {
      await registered.get()?.dispatch(deliveries);
    } catch (error) {
      logger.warn("webhook deliveries not dispatched; the delivery sweep will send them", { error, count: deliveries.length });
    }
  });
}
