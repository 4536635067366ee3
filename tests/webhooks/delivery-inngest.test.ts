import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { createWebhookDeliveryFunction, createWebhookDeliverySweep, deliveryEventName } from "@/inngest/functions/webhook-delivery";
import { hookedAccount, localReceiver, onlyDelivery, plusSeconds, withLocalReceivers } from "./delivery-support";
import { record } from "./support";

withLocalReceivers();

/** A clock the mocked sleeps move forward, so retries need no real waiting. */
function testClock(start: Date) {
  let current = start;
  return { now: () => current, set: (at: string) => (current = new Date(at)) };
}

describe("the Inngest webhook delivery function", () => {
  it("makes one attempt per step and sleeps until the next attempt time stored on the row", async () => {
    let calls = 0;
    const server = await localReceiver(() => (++calls < 3 ? { status: 502 } : { status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const { id: deliveryId } = await onlyDelivery(webhook.id);
    const t0 = plusSeconds(new Date(), 1);
    const clock = testClock(t0);
    const engine = new InngestTestEngine({ function: createWebhookDeliveryFunction({ database, now: clock.now }) });

    const { result, ctx } = await engine.execute({
      events: [{ name: deliveryEventName, data: { deliveryId, webhookId: webhook.id } }],
      steps: [
        { id: "retry-1", handler: () => clock.set(plusSeconds(t0, 30).toISOString()) },
        { id: "retry-2", handler: () => clock.set(plusSeconds(t0, 150).toISOString()) },
      ],
    });

    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("retry-1", plusSeconds(t0, 30).toISOString());
    expect(ctx.step.sleepUntil).toHaveBeenCalledWith("retry-2", plusSeconds(t0, 150).toISOString());
    expect(result).toEqual({ id: deliveryId, attempt: 3, status: "succeeded", statusCode: 204 });
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded", attempts: 3, lastStatusCode: 204 });
    expect(server.received.map((request) => request.headers["webhook-timestamp"])).toEqual(
      [t0, plusSeconds(t0, 30), plusSeconds(t0, 150)].map((at) => String(Math.floor(at.getTime() / 1000))),
    );
  });

  it("a run for a delivery already finished (by the other engine, or a duplicate event) attempts nothing", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const { id: deliveryId } = await onlyDelivery(webhook.id);
    const clock = testClock(plusSeconds(new Date(), 1));
    const run = () =>
      new InngestTestEngine({ function: createWebhookDeliveryFunction({ database, now: clock.now }) }).execute({
        events: [{ name: deliveryEventName, data: { deliveryId, webhookId: webhook.id } }],
      });

    expect((await run()).result).toMatchObject({ status: "succeeded" });
    expect((await run()).result).toEqual({ id: deliveryId, status: "gone", reason: "finished" });
    expect(server.received).toHaveLength(1);
  });

  it("the sweep sends one event per delivery never attempted, its id naming the delivery and attempt count", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const { id: deliveryId } = await onlyDelivery(webhook.id);
    const clock = testClock(plusSeconds(new Date(), 1));

    const { result, ctx } = await new InngestTestEngine({ function: createWebhookDeliverySweep({ database, now: clock.now }) }).execute({
      events: [{ name: "inngest/scheduled.timer", data: {} }],
      // The sending itself is Inngest's; the engine would otherwise try to reach it.
      steps: [{ id: "send-due", handler: () => ({ ids: [] }) }],
    });

    // On PostgreSQL other test files' deliveries share the database: the sweep sends theirs too.
    expect(ctx.step.sendEvent).toHaveBeenCalledWith(
      "send-due",
      expect.arrayContaining([{ id: `${deliveryId}-0`, name: deliveryEventName, data: { deliveryId, webhookId: webhook.id } }]),
    );
    const [, sent] = vi.mocked(ctx.step.sendEvent).mock.calls[0] as [string, unknown[]];
    expect(result).toEqual({ sent: sent.length });
    expect(server.received).toEqual([]);
  });
});
