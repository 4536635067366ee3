import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts, sandboxMail, webhookDeliveries, webhooks } from "@/db/schema";
import { eventTypes } from "@/lib/domain/events";
import { maxDeliveryAttempts } from "@/lib/domain/webhooks/delivery";
import { getDelivery } from "@/lib/domain/webhooks/get-delivery";
import { failingDaysBeforeStop, webhookSuccessRates } from "@/lib/domain/webhooks/delivery";
import { listDeliveries } from "@/lib/domain/webhooks/list-deliveries";
import { resendDelivery, resendFailedDeliveries } from "@/lib/domain/webhooks/resend-deliveries";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { AppError } from "@/lib/base/errors";
import { ctxOf } from "../oauth/support";
import { deliver, hookedAccount, localReceiver, onlyDelivery, plusSeconds, releaseHeld, withLocalReceivers } from "./delivery-support";
import { actionsOf, keyedAccount, record, webhookOf, webhookRow } from "./support";

withLocalReceivers();

const days = (n: number) => n * 24 * 60 * 60;

async function expectNotFound(promise: Promise<unknown>) {
  await expect(promise).rejects.toSatisfy((error) => error instanceof AppError && error.code === "not_found");
}

/** Fails every attempt until `healthy` is set. */
async function flakyReceiver() {
  const state = { healthy: false };
  const server = await localReceiver(() => (state.healthy ? { status: 204 } : { status: 503, body: "down for maintenance" }));
  return { server, state };
}

describe("the delivery log", () => {
  it("lists a webhook's deliveries newest first with their outcome, a page at a time, by status", async () => {
    const { server, state } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    const first = (await record(account.id))!;
    await deliver(new Date());
    state.healthy = true;
    const second = (await record(account.id))!;
    await deliver(new Date());

    const page = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, limit: 1 } });
    expect(page.webhook.id).toBe(webhook.id);
    expect(page.items).toEqual([
      expect.objectContaining({
        event_id: second.id,
        event_type: "listing.published",
        status: "succeeded",
        attempts: 1,
        last_status_code: 204,
      }),
    ]);
    const older = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, limit: 1, cursor: page.nextCursor! } });
    expect(older.items).toEqual([
      expect.objectContaining({
        event_id: first.id,
        status: "pending",
        attempts: 1,
        max_attempts: maxDeliveryAttempts,
        last_status_code: 503,
        last_error: "status_not_2xx",
        next_attempt_at: expect.any(Date),
      }),
    ]);
    expect(older.nextCursor).toBeNull();
    const pending = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, status: "pending" } });
    expect(pending.items.map((item) => item.event_id)).toEqual([first.id]);
  });

  it("shows one delivery's request as sent and the start of the receiver's answer", async () => {
    const { server } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    const event = (await record(account.id))!;
    await deliver(new Date());
    const [row] = (await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } })).items;

    const detail = await getDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: row.id } });

    expect(detail.request.headers).toMatchObject({ "webhook-id": event.id, "content-type": "application/json" });
    expect(detail.request.headers!["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.stringify(detail.request.headers)).not.toContain(webhook.secret.slice(6));
    expect(JSON.parse(detail.request.body)).toMatchObject({ id: event.id, type: "listing.published" });
    expect(detail.request.body).toBe(server.received[0].body);
    expect(detail.response_excerpt).toBe("down for maintenance");
    expect(detail.webhook.id).toBe(webhook.id);
  });

  it("answers another account's webhook and delivery exactly like missing ones", async () => {
    const { server } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const [row] = (await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } })).items;
    const stranger = await keyedAccount();
    const own = await webhookOf(stranger.ctx);

    await expectNotFound(listDeliveries({ ctx: stranger.ctx, input: { webhookId: webhook.id } }));
    await expectNotFound(listDeliveries({ ctx: stranger.ctx, input: { webhookId: "wh_0000000000000000" } }));
    await expectNotFound(getDelivery({ ctx: stranger.ctx, input: { webhookId: webhook.id, id: row.id } }));
    // Its own webhook does not open another's delivery either.
    await expectNotFound(getDelivery({ ctx: stranger.ctx, input: { webhookId: own.id, id: row.id } }));
    await expectNotFound(resendDelivery({ ctx: stranger.ctx, input: { webhookId: webhook.id, id: row.id } }));
    await expectNotFound(resendDelivery({ ctx: stranger.ctx, input: { webhookId: own.id, id: row.id } }));
    await expectNotFound(resendFailedDeliveries({ ctx: stranger.ctx, input: { webhookId: webhook.id, since: new Date(0) } }));
    await expectNotFound(getDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: "../../etc" } }));
  });
});

describe("resending", () => {
  it("resends a delivered event with the same webhook-id, a new timestamp and a fresh schedule", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    const event = (await record(account.id))!;
    const start = new Date();
    await deliver(start);
    const delivery = await onlyDelivery(webhook.id);

    const later = plusSeconds(start, 120);
    const resent = await resendDelivery({ ctx: await ctxOf(account.id, later), input: { webhookId: webhook.id, id: delivery.id } });
    expect(resent).toEqual({ resent: true, webhook_active: true, test: null });
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "pending", attempts: 0 });
    await deliver(later);

    expect(server.received).toHaveLength(2);
    const [before, after] = server.received;
    expect(after.headers["webhook-id"]).toBe(event.id);
    expect(after.body).toBe(before.body);
    expect(Number(after.headers["webhook-timestamp"]) - Number(before.headers["webhook-timestamp"])).toBe(120);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await actionsOf(account.id)).toContain("webhook.delivery_resent");
  });

  it("leaves an attempt that is running alone", async () => {
    const server = await localReceiver(() => "hold");
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const running = deliver(new Date());
    await expect.poll(() => server.received.length).toBe(1);
    const delivery = await onlyDelivery(webhook.id);

    expect(await resendDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: delivery.id } })).toEqual({
      resent: false,
      webhook_active: true,
      test: null,
    });
    releaseHeld();
    await running;
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("resends the failed deliveries made since a moment, and only those", async () => {
    const { server, state } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    const start = new Date();
    const events = [(await record(account.id))!, (await record(account.id))!];
    const { connection: db } = await database();
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 7, nextAttemptAt: null })
      .where(eq(webhookDeliveries.webhookId, webhook.id));
    const [older] = (await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } })).items.slice(-1);
    await db
      .update(webhookDeliveries)
      .set({ createdAt: plusSeconds(start, -days(2)) })
      .where(eq(webhookDeliveries.id, older.id));

    const result = await resendFailedDeliveries({
      ctx: account.ctx,
      input: { webhookId: webhook.id, since: plusSeconds(start, -days(1)) },
    });

    expect(result).toEqual({ resent: 1, webhook_active: true });
    state.healthy = true;
    await deliver(new Date());
    expect(server.received.map((request) => request.headers["webhook-id"])).toEqual([events[1].id]);
    expect(await actionsOf(account.id)).toContain("webhook.deliveries_resent");
    expect(
      await resendFailedDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, since: plusSeconds(start, -days(1)) } }),
    ).toEqual({
      resent: 0,
      webhook_active: true,
    });
  });
});

describe("endpoint health", () => {
  it("stops a webhook whose every attempt failed for 5 days, says so in the activity and mails the owner", async () => {
    const { server } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const start = new Date();
    await deliver(start);
    expect((await webhookRow(webhook.id)).failingSince).toEqual(start);

    // Failing for a little less than 5 days: still active.
    await record(account.id);
    await deliver(plusSeconds(start, days(failingDaysBeforeStop) - 60));
    expect(await webhookRow(webhook.id)).toMatchObject({ active: true });

    await record(account.id);
    await deliver(plusSeconds(start, days(failingDaysBeforeStop)));
    expect(await webhookRow(webhook.id)).toMatchObject({ active: false, stoppedReason: "failing" });
    expect(await actionsOf(account.id)).toContain("webhook.stopped_failing");
    const { connection: db } = await database();
    const [owner] = await db.select().from(accounts).where(eq(accounts.id, account.id));
    const mail = await db.select().from(sandboxMail).where(eq(sandboxMail.recipient, owner.email));
    expect(mail).toEqual([
      expect.objectContaining({ subject: expect.stringMatching(/5 (days|zile)/), text: expect.stringContaining("/settings/api/webhooks") }),
    ]);
    expect(mail[0].text).toContain(server.origin);
  });

  it("counts from the first failure after the last success: one success resets the count", async () => {
    const { server, state } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const start = new Date();
    await deliver(start);
    state.healthy = true;
    await record(account.id);
    await deliver(plusSeconds(start, days(4)));
    expect((await webhookRow(webhook.id)).failingSince).toBeNull();

    state.healthy = false;
    await record(account.id);
    await deliver(plusSeconds(start, days(failingDaysBeforeStop) + 60));
    expect(await webhookRow(webhook.id)).toMatchObject({
      active: true,
      failingSince: plusSeconds(start, days(failingDaysBeforeStop) + 60),
    });
  });

  it("mails the owner when a 410 Gone stops the webhook", async () => {
    const server = await localReceiver(() => ({ status: 410 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    await deliver(new Date());
    expect(await webhookRow(webhook.id)).toMatchObject({ active: false, stoppedReason: "gone" });
    const { connection: db } = await database();
    const [owner] = await db.select().from(accounts).where(eq(accounts.id, account.id));
    const [mail] = await db.select().from(sandboxMail).where(eq(sandboxMail.recipient, owner.email));
    expect(mail.subject).toContain("410");
    // Started again, it is healthy until it fails anew.
    await startWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    expect(await webhookRow(webhook.id)).toMatchObject({ active: true, stoppedReason: null });
  });

  it("gives each webhook's success over the last 24 hours, of the deliveries attempted", async () => {
    const { server, state } = await flakyReceiver();
    const { account, webhook } = await hookedAccount(server);
    // Subscribed to another type: no delivery in the last 24 hours.
    const idle = await webhookOf(account.ctx, [eventTypes.paused]);
    state.healthy = true;
    for (let i = 0; i < 3; i++) await record(account.id);
    await deliver(new Date());
    state.healthy = false;
    await record(account.id);
    await deliver(new Date());
    // Made but never attempted: not counted.
    await db().then((handle) =>
      handle.update(webhooks).set({ active: false, stoppedReason: "owner", stoppedAt: new Date() }).where(eq(webhooks.id, webhook.id)),
    );
    await record(account.id);

    const rates = await webhookSuccessRates({ ctx: account.ctx });
    expect(rates.get(webhook.id)).toEqual({ attempted: 4, succeeded: 3 });
    expect(rates.has(idle.id)).toBe(false);
    const stranger = await keyedAccount();
    expect((await webhookSuccessRates({ ctx: stranger.ctx })).size).toBe(0);
  });
});

const db = async () => (await database()).connection;
