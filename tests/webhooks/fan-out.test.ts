import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { webhookDeliveries } from "@/db/schema";
import { eventTypes, parseEventId } from "@/lib/domain/events";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { disconnect } from "@/lib/domain/oauth/disconnect";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/domain/webhooks/delete-webhook";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { setAppWebhook } from "@/lib/domain/webhooks/set-app-webhook";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { idPattern } from "@/lib/base/ids";
import { consentCode, exchange, redirectUri } from "../oauth/support";
import { actionsOf, deliveriesOf, freshAccount, keyedAccount, otherReceiver, receiver, record, webhookOf } from "./support";

describe("fanOutEvent (through recordEvent)", () => {
  it("makes one pending delivery per active webhook subscribed to the type, in the event's transaction", async () => {
    const account = await keyedAccount();
    const published = await webhookOf(account.ctx, [eventTypes.published, eventTypes.sold]);
    const alsoPublished = await createWebhook({ ctx: account.ctx, input: { url: otherReceiver, events: [eventTypes.published] } });
    const soldOnly = await webhookOf(account.ctx, [eventTypes.sold]);
    const event = (await record(account.id, eventTypes.published))!;
    const deliveries = await deliveriesOf([published.id, alsoPublished.id, soldOnly.id]);
    expect(deliveries.map((row) => row.webhookId).sort()).toEqual([published.id, alsoPublished.id].sort());
    for (const row of deliveries) {
      expect(row.id).toMatch(idPattern("webhookDelivery"));
      expect(row).toMatchObject({
        eventSeq: parseEventId(event.id),
        connectionId: null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: new Date(event.created_at),
        lastStatusCode: null,
        lastRequestHeaders: null,
      });
    }
    expect(new Set(deliveries.map((row) => row.id)).size).toBe(2);
  });

  it("makes none for a stopped webhook, and again after it is started", async () => {
    const account = await keyedAccount();
    const webhook = await webhookOf(account.ctx);
    await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    await record(account.id);
    expect(await deliveriesOf([webhook.id])).toEqual([]);
    await startWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    await record(account.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(1);
  });

  it("makes none while the account has no key (events reach only accounts with a key)", async () => {
    const account = await freshAccount();
    const webhook = await webhookOf(account.ctx);
    expect(await record(account.id)).toBeNull();
    expect(await deliveriesOf([webhook.id])).toEqual([]);

    const keyed = await keyedAccount();
    const keyedWebhook = await webhookOf(keyed.ctx);
    await record(keyed.id);
    await revokeKey({ ctx: keyed.ctx, input: { id: keyed.keyId } });
    expect(await record(keyed.id)).toBeNull();
    expect(await deliveriesOf([keyedWebhook.id])).toHaveLength(1);
  });

  it("rolls back with the change: no delivery without its committed event", async () => {
    const account = await keyedAccount();
    const webhook = await webhookOf(account.ctx);
    const { connection: db } = await database();
    const { recordEvent } = await import("@/lib/domain/events");
    await expect(
      db.transaction(async (tx) => {
        await recordEvent(tx, { accountId: account.id, type: eventTypes.published, data: {}, now: new Date() });
        throw new Error("the change fails after its event");
      }),
    ).rejects.toThrow("the change fails");
    expect(await deliveriesOf([webhook.id])).toEqual([]);
  });

  it("does not reach another account's webhooks", async () => {
    const account = await keyedAccount();
    const other = await keyedAccount();
    const otherWebhook = await webhookOf(other.ctx);
    await record(account.id);
    expect(await deliveriesOf([otherWebhook.id])).toEqual([]);
  });
});

describe("an integrator app's webhook", () => {
  async function appWithWebhook(events: string[] = [eventTypes.published]) {
    const owner = await freshAccount();
    const client = await registerClient({ ctx: owner.ctx, input: { name: "Agency CRM", redirect_uris: [redirectUri] } });
    const webhook = await setAppWebhook({ ctx: owner.ctx, input: { client_id: client.client_id, url: receiver, events: events as never } });
    return { owner, client, webhook };
  }

  async function connect(client: { client_id: string; client_secret: string }) {
    const account = await freshAccount();
    const token = await exchange(client, await consentCode(account.id, client.client_id));
    return { ...account, connectionId: token.connection_id };
  }

  it("is created once with its secret, counts in the owner's five, and later calls change its address and types", async () => {
    const { owner, client, webhook } = await appWithWebhook();
    expect(webhook).toMatchObject({ client_id: client.client_id, url: receiver, events: [eventTypes.published], active: true });
    expect(webhook.secret).toMatch(/^whsec_/);
    const changed = await setAppWebhook({
      ctx: owner.ctx,
      input: { client_id: client.client_id, url: otherReceiver, events: [eventTypes.sold] },
    });
    expect(changed).toMatchObject({ id: webhook.id, url: "https://[2606:4700:4700::1111]/in", events: [eventTypes.sold], secret: null });
    for (let i = 0; i < 4; i++) await webhookOf(owner.ctx);
    const listed = await listWebhooks({ ctx: owner.ctx });
    expect(listed).toHaveLength(5);
    expect(listed.filter((row) => row.client_id !== null)).toEqual([
      expect.objectContaining({ id: webhook.id, client_id: client.client_id }),
    ]);
    await expect(webhookOf(owner.ctx)).rejects.toMatchObject({ code: "limit_reached", params: { reason: "too_many_webhooks" } });
    expect(await actionsOf(owner.id)).toEqual(expect.arrayContaining(["app.registered", "webhook.created", "webhook.updated"]));
  });

  it("of another account's app is not_found", async () => {
    const { client } = await appWithWebhook();
    const stranger = await freshAccount();
    await expect(
      setAppWebhook({ ctx: stranger.ctx, input: { client_id: client.client_id, url: receiver, events: [eventTypes.sold] } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await listWebhooks({ ctx: stranger.ctx })).toEqual([]);
  });

  it("receives the events of each connected account with its connection_id, until it disconnects", async () => {
    const { owner, client, webhook } = await appWithWebhook();
    const first = await connect(client);
    const second = await connect(client);
    const own = await webhookOf(first.ctx);
    const event = (await record(first.id))!;
    await record(second.id);
    await record(second.id, eventTypes.sold);
    const deliveries = await deliveriesOf([webhook.id]);
    expect(deliveries.map((row) => [row.connectionId, row.eventSeq! > 0]).sort()).toEqual(
      [
        [first.connectionId, true],
        [second.connectionId, true],
      ].sort(),
    );
    // The connected account's own webhook gets the same event, without a connection.
    expect(await deliveriesOf([own.id])).toEqual([expect.objectContaining({ eventSeq: parseEventId(event.id), connectionId: null })]);

    await disconnect({ ctx: second.ctx, input: { connection_id: second.connectionId } });
    await webhookOf(second.ctx);
    await record(first.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(3);
    // The app's owner is not connected: its own events do not go to its app's webhook.
    await record(owner.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(3);
  });

  it("stopped or deleted, receives nothing", async () => {
    const { owner, client, webhook } = await appWithWebhook();
    const connected = await connect(client);
    await stopWebhook({ ctx: owner.ctx, input: { id: webhook.id } });
    await record(connected.id);
    expect(await deliveriesOf([webhook.id])).toEqual([]);
    await startWebhook({ ctx: owner.ctx, input: { id: webhook.id } });
    await record(connected.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(1);
    await deleteWebhook({ ctx: owner.ctx, input: { id: webhook.id } });
    await record(connected.id);
    const { connection: db } = await database();
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhook.id))).toEqual([]);
  });
});
