import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventTypes } from "@/lib/domain/events";
import { attemptDelivery } from "@/lib/domain/webhooks/delivery";
import { newWebhookSecret, signWebhook } from "@/lib/domain/webhooks/signature";
import { restoreEnv, setEnv } from "../../support/env";

// The receiver example of README "Webhooks" → "Receiving" is docs/examples/webhook-receiver.mjs,
// embedded in docs/webhooks.md verbatim: these tests hold the two equal and run that code against the
// platform's own sender (attemptDelivery, signed by lib/domain/webhooks/signature.ts).

const root = path.join(import.meta.dirname, "../../..");
const exampleFile = path.join(root, "docs/examples/webhook-receiver.mjs");

interface ReceiverModule {
  createReceiver(options: { secret: string; handleEvent: (event: unknown) => void }): Server;
}

const servers: Server[] = [];
beforeEach(() => {
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
});
afterEach(async () => {
  restoreEnv();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/**
 * The example's receiver on a free loopback port, with the events it handled. It handles an event
 * after answering, in the order deliveries came: `handledAfter(event)` waits until that event is
 * handled, so whatever an earlier delivery would have made the receiver handle has been handled by then.
 */
async function startExample(secret: string) {
  const { createReceiver } = (await import(pathToFileURL(exampleFile).href)) as ReceiverModule;
  const handled: unknown[] = [];
  const waiting: (() => void)[] = [];
  const server = createReceiver({
    secret,
    handleEvent: (event) => {
      handled.push(event);
      for (const wake of waiting.splice(0)) wake();
    },
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const handledAfter = (body: string) =>
    new Promise<void>(function check(done) {
      if (handled.some((event) => JSON.stringify(event) === JSON.stringify(JSON.parse(body)))) done();
      else waiting.push(() => check(done));
    });
  return { url, handled, handledAfter };
}

function eventJson(id: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    id,
    type: eventTypes.published,
    created_at: "2026-01-01T10:00:00.000Z",
    data: { code: "K7M2XQ4P", external_ref: null, status: "active", url: "http://localhost:3000/listings/K7M2XQ4P" },
    ...extra,
  });
}

describe("the webhooks guide's receiver example", () => {
  it("is embedded in docs/webhooks.md exactly as docs/examples/webhook-receiver.mjs", () => {
    const section = readFileSync(path.join(root, "docs/webhooks.md"), "utf8");
    const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(readFileSync(exampleFile, "utf8"));
    expect(section).toContain("docs/examples/webhook-receiver.mjs");
  });

  it("accepts a real signed delivery with 2xx, handles it once, and dedupes a repeat by webhook-id", async () => {
    const secret = newWebhookSecret();
    const { url, handled, handledAfter } = await startExample(secret);
    const body = eventJson("evt_00000000a3", { connection: 7 });
    const first = await attemptDelivery({ url, secret, event: { id: "evt_00000000a3", body }, now: new Date() });
    expect(first).toMatchObject({ ok: true, status: 204, error: null });
    // The retry of the same event: same webhook-id, fresh timestamp and signature.
    const again = await attemptDelivery({ url, secret, event: { id: "evt_00000000a3", body }, now: new Date(Date.now() + 30_000) });
    expect(again).toMatchObject({ ok: true, status: 204 });
    // Another event after the repeat: once it is handled, the repeat would have been too, had it not been skipped.
    const next = eventJson("evt_00000000a5");
    expect(await attemptDelivery({ url, secret, event: { id: "evt_00000000a5", body: next }, now: new Date() })).toMatchObject({
      ok: true,
    });
    await handledAfter(next);
    expect(handled).toEqual([JSON.parse(body), JSON.parse(next)]);
  });

  it("refuses a delivery signed with another secret, a changed body and a timestamp older than 5 minutes", async () => {
    const secret = newWebhookSecret();
    const { url, handled, handledAfter } = await startExample(secret);
    const body = eventJson("evt_00000000a4");

    const otherSecret = await attemptDelivery({ url, secret: newWebhookSecret(), event: { id: "evt_00000000a4", body }, now: new Date() });
    expect(otherSecret).toMatchObject({ ok: false, status: 400 });

    const stale = await attemptDelivery({ url, secret, event: { id: "evt_00000000a4", body }, now: new Date(Date.now() - 6 * 60_000) });
    expect(stale).toMatchObject({ ok: false, status: 400 });

    // Signed for one body, sent with another (re-serialised: same JSON value, other bytes).
    const timestamp = Math.floor(Date.now() / 1000);
    const tampered = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "evt_00000000a4",
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook({ secret, id: "evt_00000000a4", timestamp, body }),
      },
      body: JSON.stringify(JSON.parse(body), null, 2),
    });
    expect(tampered.status).toBe(400);

    // Another event after the refusals: once it is handled, a refusal handled by mistake would have been too.
    const next = eventJson("evt_00000000a6");
    expect(await attemptDelivery({ url, secret, event: { id: "evt_00000000a6", body: next }, now: new Date() })).toMatchObject({
      ok: true,
    });
    await handledAfter(next);
    expect(handled).toEqual([JSON.parse(next)]);
    // None of those refusals marked the id as seen: the genuine delivery still goes through.
    const genuine = await attemptDelivery({ url, secret, event: { id: "evt_00000000a4", body }, now: new Date() });
    expect(genuine).toMatchObject({ ok: true, status: 204 });
    await handledAfter(body);
    expect(handled).toEqual([JSON.parse(next), JSON.parse(body)]);
  });
});
