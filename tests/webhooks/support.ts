import { asc, eq, inArray } from "drizzle-orm";
import { database } from "@/db";
import { activityLog, webhookDeliveries, webhooks } from "@/db/schema";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { ctxOf, freshAccount } from "../oauth/support";
import { accountWithKey } from "../support/fixtures";

// Public address literals: the SSRF check needs no name resolution for them, so the tests need no network.
export const receiver = "https://93.184.215.14/hooks/listings";
export const otherReceiver = "https://[2606:4700:4700::1111]/in";

export { freshAccount };

/** A fresh confirmed account with a key (so that its changes record events), acting for itself. */
export async function keyedAccount() {
  const { account, keyId } = await accountWithKey();
  return { id: account.id, keyId, ctx: await ctxOf(account.id) };
}

export async function webhookOf(ctx: Awaited<ReturnType<typeof keyedAccount>>["ctx"], events: string[] = [eventTypes.published]) {
  return createWebhook({ ctx, input: { url: receiver, events: events as never } });
}

/** Records one event of the account in its own transaction, as a state change does. */
export async function record(accountId: string, type: (typeof eventTypes)[keyof typeof eventTypes] = eventTypes.published) {
  const { connection: db } = await database();
  return db.transaction((tx) => recordEvent(tx, { accountId, type, data: { code: "X1" }, now: new Date() }));
}

export async function deliveriesOf(webhookIds: string[]) {
  const { connection: db } = await database();
  if (webhookIds.length === 0) return [];
  return db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.webhookId, webhookIds));
}

export async function webhookRow(id: string) {
  const { connection: db } = await database();
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

export async function actionsOf(accountId: string): Promise<string[]> {
  const { connection: db } = await database();
  const rows = await db.select().from(activityLog).where(eq(activityLog.accountId, accountId)).orderBy(asc(activityLog.createdAt));
  return rows.map((row) => row.action);
}
