import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { sendTestDelivery } from "@/lib/domain/webhooks/send-test-delivery";
import { cli } from "../cli/support";
import { hookedAccount, localReceiver, withLocalReceivers, verifyingWith } from "./delivery-support";
import { deliveriesOf, keyedAccount } from "./support";

withLocalReceivers();

describe("sendTestDelivery (the Test button) and webhook:test", () => {
  it("sends a signed webhook.test event with data.message to that webhook only, and returns the result at once", async () => {
    let secret = "";
    const server = await localReceiver((request) => verifyingWith(secret)(request));
    const { account, webhook } = await hookedAccount(server);
    secret = webhook.secret;

    const result = await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id, message: "hello" } });

    expect(result).toEqual({
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
    expect(await deliveriesOf([webhook.id])).toEqual([]);
  });

  it("is not retried: a failing receiver gets one request and the failure is returned", async () => {
    const server = await localReceiver(() => ({ status: 500 }));
    const { account, webhook } = await hookedAccount(server);
    expect(await sendTestDelivery({ ctx: account.ctx, input: { id: webhook.id } })).toMatchObject({
      ok: false,
      status: 500,
      error: "status_not_2xx",
    });
    expect(server.received).toHaveLength(1);
    expect(await deliveriesOf([webhook.id])).toEqual([]);
  });

  it("another account's webhook is not_found", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { webhook } = await hookedAccount(server);
    const stranger = await keyedAccount();
    await expect(sendTestDelivery({ ctx: stranger.ctx, input: { id: webhook.id } })).rejects.toMatchObject({ code: "not_found" });
    expect(server.received).toEqual([]);
  });

  it("webhook:test --id prints the receiver's answer", async () => {
    const server = await localReceiver(() => ({ status: 202 }));
    const { webhook } = await hookedAccount(server);
    const run = await cli("webhook:test", "--id", webhook.id);
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toMatchObject({ ok: true, status: 202, error: null, event_id: server.received[0].headers["webhook-id"] });
  });
});
