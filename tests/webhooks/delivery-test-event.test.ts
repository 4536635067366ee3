import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { webhookDeliveries } from "@/db/schema";
import { listEvents } from "@/lib/domain/events";
import { webhookSuccessRates } from "@/lib/domain/webhooks/delivery";
import { getDelivery } from "@/lib/domain/webhooks/get-delivery";
import { listDeliveries } from "@/lib/domain/webhooks/list-deliveries";
import { resendDelivery, resendFailedDeliveries } from "@/lib/domain/webhooks/resend-deliveries";
import { sendTestDelivery } from "@/lib/domain/webhooks/send-test-delivery";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { AppError } from "@/lib/base/errors";
import { cli } from "../cli/support";
import { ctxOf } from "../oauth/support";
import { deliver, hookedAccount, localReceiver, onlyDelivery, plusSeconds, withLocalReceivers, verifyingWith } from "./delivery-support";
import { actionsOf, keyedAccount, record, webhookOf } from "./support";

withLocalReceivers();

async function expectNotFound(promise: Promise<unknown>) {
  await expect(promise).rejects.toSatisfy((error) => error instanceof AppError && error.code === "not_found");
}

describe("sendTestDelivery (the Test button) and webhook:test", () => {
  it("sends a signed webhook.test event with data.message to that webhook only, and returns the result at once", async () => {
    let secret = "";
    const server = await localReceiver((request) => verifyingWith(secret)(request));
    const { account, webhook } = await hookedAccount(server);
    secret = webhook.secret;

    const result = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id, message: "hello" } });

    expect(result).toEqual({
      delivery_id: expect.stringMatching(/^whd_[0-9a-z]{16}$/),
      event_id: expect.stringMatching(/^evt_test_[0-9a-f]{16}$/),
      ok: true,
      status: 204,
      duration_ms: expect.any(Number),
      error: null,
    });
    const [request] = server.received;
    expect(request.headers["webhook-id"]).toBe(result.event_id);
    const body = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    expect(body).toEqual({ id: result.event_id, type: "webhook.test", created_at: expect.any(String), data: { message: "hello" } });
    // Not an outbox event: GET /events never lists it.
    expect((await listEvents({ ctx: account.ctx, input: { accountId: account.id, limit: 10 } })).data).toEqual([]);
  });

  it("keeps the test delivery in the delivery log like any delivery: status, 1 attempt of 1, the request as sent", async () => {
    const server = await localReceiver(() => ({ status: 202, body: "thanks" }));
    const { account, webhook } = await hookedAccount(server);
    const event = (await record(account.id))!;
    await deliver(new Date());

    const result = await sendTestDelivery({ ctx: await ctxOf(account.id), input: { id: webhook.id } });

    const log = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } });
    expect(log.items).toEqual([
      expect.objectContaining({
        id: result.delivery_id,
        webhook_id: webhook.id,
        event_id: result.event_id,
        event_type: "webhook.test",
        status: "succeeded",
        attempts: 1,
        max_attempts: 1,
        last_status_code: 202,
        last_error: null,
        next_attempt_at: null,
      }),
      expect.objectContaining({ event_id: event.id, event_type: "listing.published", max_attempts: 7 }),
    ]);
    const succeeded = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, status: "succeeded" } });
    expect(succeeded.items.map((item) => item.event_type)).toEqual(["webhook.test", "listing.published"]);

    const detail = await getDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: result.delivery_id } });
    expect(detail.request.body).toBe(server.received[1].body);
    expect(detail.request.headers).toMatchObject({ "webhook-id": result.event_id, "content-type": "application/json" });
    expect(detail.response_excerpt).toBe("thanks");
    // The webhook's 24-hour success counts it as the attempt it was.
    expect((await webhookSuccessRates({ ctx: account.ctx })).get(webhook.id)).toEqual({ attempted: 2, succeeded: 2 });
  });

  it("is not retried: a failing receiver gets one request, the delivery is failed at once and no pass of the queue sends it", async () => {
    const server = await localReceiver(() => ({ status: 500 }));
    const { account, webhook } = await hookedAccount(server);
    const start = new Date();
    const result = await sendTestDelivery({ ctx: await ctxOf(account.id, start), input: { id: webhook.id } });
    expect(result).toMatchObject({ ok: false, status: 500, error: "status_not_2xx" });

    await deliver(plusSeconds(start, 60 * 60));
    expect(server.received).toHaveLength(1);
    expect(await onlyDelivery(webhook.id)).toMatchObject({
      id: result.delivery_id,
      status: "failed",
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 500,
      lastError: "status_not_2xx",
      eventSeq: null,
    });
  });

  it("Resend sends the same test again at once, once, with a new timestamp, and its row takes the new outcome", async () => {
    const state = { healthy: false };
    const server = await localReceiver(() => (state.healthy ? { status: 204 } : { status: 503 }));
    const { account, webhook } = await hookedAccount(server);
    const start = new Date();
    const sent = await sendTestDelivery({ ctx: await ctxOf(account.id, start), input: { id: webhook.id } });
    state.healthy = true;

    const later = plusSeconds(start, 90);
    const resent = await resendDelivery({
      ctx: await ctxOf(account.id, later),
      input: { webhookId: webhook.id, id: sent.delivery_id },
    });

    expect(resent).toEqual({
      resent: true,
      webhook_active: true,
      test: { delivery_id: sent.delivery_id, event_id: sent.event_id, ok: true, status: 204, duration_ms: expect.any(Number), error: null },
    });
    expect(server.received).toHaveLength(2);
    const [before, after] = server.received;
    expect(after.body).toBe(before.body);
    expect(after.headers["webhook-id"]).toBe(sent.event_id);
    expect(Number(after.headers["webhook-timestamp"]) - Number(before.headers["webhook-timestamp"])).toBe(90);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 204, lastError: null });
    expect(await actionsOf(account.id)).toContain("webhook.delivery_resent");
    await deliver(plusSeconds(later, 60 * 60));
    expect(server.received).toHaveLength(2);
  });

  it("a stopped webhook is tested and its test resent at once, as the Test button does", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    const sent = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } });
    const resent = await resendDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: sent.delivery_id } });
    expect(resent).toMatchObject({ resent: true, webhook_active: false, test: { ok: true, status: 204 } });
    expect(server.received).toHaveLength(2);
  });

  it("the bulk resend of failed deliveries leaves the failed tests out", async () => {
    const server = await localReceiver(() => ({ status: 500 }));
    const { account, webhook } = await hookedAccount(server);
    const sent = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } });

    const result = await resendFailedDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id, since: new Date(0) } });

    expect(result).toEqual({ resent: 0, webhook_active: true });
    expect(await onlyDelivery(webhook.id)).toMatchObject({ id: sent.delivery_id, status: "failed", attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  it("a test delivery cannot be queued: the database refuses it pending", async () => {
    const server = await localReceiver(() => ({ status: 500 }));
    const { account, webhook } = await hookedAccount(server);
    const sent = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } });
    const { connection: db } = await database();
    await expect(
      db.update(webhookDeliveries).set({ status: "pending" }).where(eq(webhookDeliveries.id, sent.delivery_id)),
    ).rejects.toThrow();
  });

  it("keeps a receiver's NUL as U+FFFD in the answer's excerpt, for a test and for an event's delivery", async () => {
    const server = await localReceiver(() => ({ status: 200, body: "ok\u0000done" }));
    const { account, webhook } = await hookedAccount(server);
    const sent = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } });
    await record(account.id);
    await deliver(new Date());

    const log = await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } });
    expect(log.items.map((item) => item.status)).toEqual(["succeeded", "succeeded"]);
    for (const item of log.items) {
      const detail = await getDelivery({ ctx: account.ctx, input: { webhookId: webhook.id, id: item.id } });
      expect(detail.response_excerpt).toBe("ok\uFFFDdone");
    }
    expect(log.items.map((item) => item.id)).toContain(sent.delivery_id);
  });

  it("another account's webhook is not_found, and so are its test deliveries", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    const stranger = await keyedAccount();
    const own = await webhookOf(stranger.ctx);
    await expectNotFound(sendTestDelivery({ ctx: stranger.ctx, input: { id: webhook.id } }));
    expect(server.received).toEqual([]);

    const sent = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } });
    await expectNotFound(getDelivery({ ctx: stranger.ctx, input: { webhookId: webhook.id, id: sent.delivery_id } }));
    await expectNotFound(getDelivery({ ctx: stranger.ctx, input: { webhookId: own.id, id: sent.delivery_id } }));
    await expectNotFound(resendDelivery({ ctx: stranger.ctx, input: { webhookId: webhook.id, id: sent.delivery_id } }));
    await expectNotFound(resendDelivery({ ctx: stranger.ctx, input: { webhookId: own.id, id: sent.delivery_id } }));
    expect((await listDeliveries({ ctx: stranger.ctx, input: { webhookId: own.id } })).items).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it("webhook:test --id prints the receiver's answer, and the delivery is in the webhook's log", async () => {
    const server = await localReceiver(() => ({ status: 202 }));
    const { account, webhook } = await hookedAccount(server);
    const run = await cli("webhook:test", "--id", webhook.id);
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toMatchObject({ ok: true, status: 202, error: null, event_id: server.received[0].headers["webhook-id"] });
    const [logged] = (await listDeliveries({ ctx: account.ctx, input: { webhookId: webhook.id } })).items;
    expect(logged).toMatchObject({
      id: (run.result as { delivery_id: string }).delivery_id,
      event_type: "webhook.test",
      status: "succeeded",
    });
  });
});
