import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { webhooks } from "@/db/schema";
import { eventTypes, listEvents } from "@/lib/domain/events";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { deliveryLeaseSeconds, DeliveryLane, maxInFlightPerWebhook, retryDelaysSeconds } from "@/lib/domain/webhooks/delivery";
import { attemptClaimed, runClaimedDelivery } from "@/lib/domain/webhooks/delivery/internal/attempt";
import { recordSuccessesAndHandOff } from "@/lib/domain/webhooks/delivery/internal/outcomes";
import { claimDueDeliveries, maxClaimedPerWebhook } from "@/lib/domain/webhooks/delivery/internal/queue";
import { setAppWebhook } from "@/lib/domain/webhooks/set-app-webhook";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { consentCode, exchange, redirectUri } from "../oauth/support";
import { ownDatabaseOnPostgres } from "../support/child-database";
import {
  deliver,
  hookedAccount,
  localReceiver,
  onlyDelivery,
  plusSeconds,
  pointAt,
  releaseHeld,
  withLocalReceivers,
  verifyingWith,
} from "./delivery-support";
import { actionsOf, deliveriesOf, freshAccount, keyedAccount, receiver, record, webhookOf } from "./support";

withLocalReceivers();

/** A lane of its own for the test, on the file's database; its sweep far off, so only wake-ups start its passes. */
async function startedLane(): Promise<DeliveryLane> {
  const lane = new DeliveryLane({ database: await database(), sweepMs: 3_600_000 });
  await lane.start();
  return lane;
}

describe("the delivery engine: claim, attempt, outcome", () => {
  it("delivers the event as GET /events shows it, signed as Standard Webhooks receivers verify it", async () => {
    let secret = "";
    const server = await localReceiver((request) => verifyingWith(secret)(request));
    const { account, webhook } = await hookedAccount(server);
    secret = webhook.secret;
    const event = (await record(account.id))!;

    const outcomes = await deliver(new Date());

    expect(outcomes).toEqual([expect.objectContaining({ status: "succeeded", statusCode: 204, attempt: 1 })]);
    const [request] = server.received;
    expect(request.headers).toMatchObject({
      "webhook-id": event.id,
      "user-agent": "Service-Webhooks/1",
      "content-type": "application/json",
    });
    const { data } = await listEvents({ ctx: account.ctx, input: { accountId: account.id, limit: 100 } });
    expect(JSON.parse(request.body)).toEqual(data.find((listed) => listed.id === event.id));
    expect(JSON.parse(request.body)).not.toHaveProperty("connection");
    expect(await onlyDelivery(webhook.id)).toMatchObject({
      status: "succeeded",
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 204,
      lastError: null,
      lastRequestHeaders: expect.objectContaining({ "webhook-id": event.id }),
    });
    // Done: a later pass leaves it alone.
    expect(await deliver(plusSeconds(new Date(), 3600))).toEqual([]);
    expect(server.received).toHaveLength(1);
  });

  it("retries on the delivery schedule, then fails after the 7th attempt: same webhook-id, a fresh signed timestamp each time", async () => {
    const server = await localReceiver(() => ({ status: 500, body: "down" }));
    const { account, webhook } = await hookedAccount(server);
    const event = (await record(account.id))!;
    let now = plusSeconds(new Date(), 1);
    const times: Date[] = [];

    for (let attempt = 1; attempt <= 7; attempt++) {
      // Not due a moment before its time.
      if (attempt > 1) expect(await deliver(new Date(now.getTime() - 1))).toEqual([]);
      const [outcome] = await deliver(now);
      times.push(now);
      if (attempt < 7) {
        const next = plusSeconds(now, retryDelaysSeconds[attempt - 1]);
        expect(outcome).toEqual({
          id: outcome.id,
          attempt,
          status: "retrying",
          nextAttemptAt: next.toISOString(),
          error: "status_not_2xx",
        });
        expect(await onlyDelivery(webhook.id)).toMatchObject({
          status: "pending",
          attempts: attempt,
          nextAttemptAt: next,
          lastStatusCode: 500,
        });
        now = next;
      } else {
        expect(outcome).toEqual({ id: outcome.id, attempt: 7, status: "failed", error: "status_not_2xx", webhookStopped: false });
      }
    }

    expect(retryDelaysSeconds).toEqual([30, 120, 600, 1800, 7200, 21600]);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "failed", attempts: 7, nextAttemptAt: null, lastStatusCode: 500 });
    expect(await deliver(plusSeconds(now, 86_400))).toEqual([]);
    expect(server.received).toHaveLength(7);
    const signer = new Webhook(webhook.secret);
    server.received.forEach((request, i) => {
      expect(request.headers["webhook-id"]).toBe(event.id);
      expect(request.headers["webhook-timestamp"]).toBe(String(Math.floor(times[i].getTime() / 1000)));
      const signature = signer.sign(event.id, new Date(Number(request.headers["webhook-timestamp"]) * 1000), request.body);
      expect(request.headers["webhook-signature"]).toBe(signature);
    });
    expect(new Set(server.received.map((request) => request.headers["webhook-timestamp"])).size).toBe(7);
    expect(new Set(server.received.map((request) => request.body)).size).toBe(1);
  });

  it("counts a 5xx, a redirect (not followed) and a time-out as failed attempts", async () => {
    const target = await localReceiver(() => ({ status: 204 }));
    const failing = await localReceiver(() => ({ status: 503 }));
    const redirecting = await localReceiver(() => ({ status: 302, headers: { location: `${target.origin}/elsewhere` } }));
    const silent = await localReceiver(() => "hold");
    const account = await keyedAccount();
    const ids: Record<string, string> = {};
    for (const [name, server] of Object.entries({ failing, redirecting, silent })) {
      const webhook = await webhookOf(account.ctx);
      await pointAt(webhook.id, server.origin);
      ids[name] = webhook.id;
    }
    await record(account.id);

    const now = new Date();
    await deliver(now, { timeoutMs: 300 });

    const next = plusSeconds(now, 30);
    expect(await onlyDelivery(ids.failing)).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: next, lastStatusCode: 503 });
    expect(await onlyDelivery(ids.redirecting)).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: next,
      lastStatusCode: 302,
      lastError: "redirect_not_followed",
    });
    expect(await onlyDelivery(ids.silent)).toMatchObject({
      status: "pending",
      attempts: 1,
      nextAttemptAt: next,
      lastStatusCode: null,
      lastError: "timeout",
    });
    expect(target.received).toEqual([]);
  });

  it("a 410 Gone stops the webhook at once and fails the delivery; no later event reaches it", async () => {
    const server = await localReceiver(() => ({ status: 410 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const now = new Date();

    expect(await deliver(now)).toEqual([expect.objectContaining({ status: "failed", webhookStopped: true })]);

    const { connection: db } = await database();
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, webhook.id));
    expect(row).toMatchObject({ active: false, stoppedReason: "gone", stoppedAt: now });
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    expect(await actionsOf(account.id)).toContain("webhook.stopped_gone");
    await record(account.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(1);
  });

  it("leaves a stopped webhook's deliveries pending, and delivers them once it is started again", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } });

    expect(await deliver(plusSeconds(new Date(), 60))).toEqual([]);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "pending", attempts: 0 });

    await startWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    expect(await deliver(plusSeconds(new Date(), 60))).toEqual([expect.objectContaining({ status: "succeeded" })]);
    expect(server.received).toHaveLength(1);
  });

  it("retries a delivery left delivering by a process that died, once its lease has ended", async () => {
    const server = await localReceiver(() => ({ status: 200 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    const { connection: db } = await database();
    const claimedAt = new Date();
    // The claim commits, then the process dies before its attempt.
    const ids = [(await onlyDelivery(webhook.id)).id];
    expect(await claimDueDeliveries(db, { now: claimedAt, limit: 10, ids })).toHaveLength(1);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "delivering", attempts: 1 });

    expect(await deliver(plusSeconds(claimedAt, 30))).toEqual([]);
    expect(await deliver(plusSeconds(claimedAt, 60))).toEqual([expect.objectContaining({ status: "succeeded", attempt: 2 })]);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(server.received).toHaveLength(1);
  });

  it("adds the connection to the event delivered to an integrator app's webhook", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const owner = await freshAccount();
    const client = await registerClient({ ctx: owner.ctx, input: { name: "Agency CRM", redirect_uris: [redirectUri] } });
    const webhook = await setAppWebhook({
      ctx: owner.ctx,
      input: { client_id: client.client_id, url: receiver, events: [eventTypes.published] },
    });
    await pointAt(webhook.id, server.origin);
    const connected = await freshAccount();
    const token = await exchange(client, await consentCode(connected.id, client.client_id));
    const event = (await record(connected.id))!;

    await deliver(new Date());

    expect(server.received).toHaveLength(1);
    expect(JSON.parse(server.received[0].body)).toEqual({ ...event, connection: token.connection_id });
  });

  it(`keeps at most ${maxInFlightPerWebhook} attempts in flight per webhook; a slow receiver does not hold up another webhook`, async () => {
    const slow = await localReceiver(() => "hold");
    const fast = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(slow);
    const other = await hookedAccount(fast);
    for (let i = 0; i < maxInFlightPerWebhook + 2; i++) await record(account.id);
    await record(other.account.id);
    const now = new Date();

    const first = deliver(now);
    await vi.waitFor(() => expect(slow.received).toHaveLength(maxInFlightPerWebhook));
    await vi.waitFor(async () => expect(await onlyDelivery(other.webhook.id)).toMatchObject({ status: "succeeded" }));
    const statuses = async () => (await deliveriesOf([webhook.id])).map((row) => row.status).sort();
    expect(await statuses()).toEqual([...Array(maxInFlightPerWebhook).fill("delivering"), "pending", "pending"]);
    // Another pass meanwhile takes none of the slow webhook's: it is at its cap.
    expect(await deliver(now)).toEqual([]);

    releaseHeld();
    expect(await first).toHaveLength(maxInFlightPerWebhook + 1);
    const rest = deliver(now);
    await vi.waitFor(() => expect(slow.received).toHaveLength(maxInFlightPerWebhook + 2));
    releaseHeld();
    expect(await rest).toHaveLength(2);
    expect(await statuses()).toEqual(Array(maxInFlightPerWebhook + 2).fill("succeeded"));
  });

  it("claims another account's delivery behind a webhook at its cap, however long that webhook's backlog", async () => {
    const slow = await localReceiver(() => "hold");
    const fast = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(slow);
    const other = await hookedAccount(fast);
    // The burst: more due deliveries than a claim looks at (its limit × the cap), all older than the other's.
    for (let i = 0; i < maxInFlightPerWebhook * 3; i++) await record(account.id);
    const now = new Date();
    const first = deliver(now, { limit: maxInFlightPerWebhook });
    await vi.waitFor(() => expect(slow.received).toHaveLength(maxInFlightPerWebhook));
    await record(other.account.id);

    const { connection: db } = await database();
    const due = [...(await deliveriesOf([webhook.id])), await onlyDelivery(other.webhook.id)]
      .filter((row) => row.status === "pending")
      .map((row) => row.id);
    const claimed = await claimDueDeliveries(db, { now: plusSeconds(now, 1), limit: 1, ids: due });
    expect(claimed.map((one) => one.webhookId)).toEqual([other.webhook.id]);

    await runClaimedDelivery(db, { claimed: claimed[0], now: plusSeconds(now, 1) });
    expect(await onlyDelivery(other.webhook.id)).toMatchObject({ status: "succeeded" });
    releaseHeld();
    expect(await first).toHaveLength(maxInFlightPerWebhook);
  });
});

describe("handing an ended attempt's slot on (the lane's outcome write)", () => {
  it("records the successes and claims, in the same statement, one next due delivery of the same webhook for each", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    const other = await hookedAccount(server);
    for (let i = 0; i < maxInFlightPerWebhook + 2; i++) await record(account.id);
    await record(other.account.id);
    const { connection: db } = await database();
    const now = new Date();
    const ours = (await deliveriesOf([webhook.id])).map((row) => row.id);
    const claimed = await claimDueDeliveries(db, { now, limit: 50, ids: ours });
    expect(claimed).toHaveLength(maxInFlightPerWebhook);
    const statuses = async () => (await deliveriesOf([webhook.id])).map((row) => row.status).sort();

    const ended = await Promise.all(
      claimed.slice(0, 2).map(async (one) => ({ claimed: one, now, result: await attemptClaimed({ claimed: one, now }) })),
    );
    const next = await recordSuccessesAndHandOff(db, { ended, now: plusSeconds(now, 1) });

    expect(next.map((one) => ({ webhookId: one.webhookId, attempt: one.attempt }))).toEqual([
      { webhookId: webhook.id, attempt: 1 },
      { webhookId: webhook.id, attempt: 1 },
    ]);
    expect(next.map((one) => one.id)).not.toContain(claimed[0].id);
    // Two ended, two taken on: still at the cap, none of the other webhook's taken.
    expect(await statuses()).toEqual([...Array(maxInFlightPerWebhook).fill("delivering"), "succeeded", "succeeded"]);
    expect(await onlyDelivery(other.webhook.id)).toMatchObject({ status: "pending", attempts: 0 });

    const rest = [...claimed.slice(2), ...next];
    const restEnded = await Promise.all(
      rest.map(async (one) => ({ claimed: one, now, result: await attemptClaimed({ claimed: one, now }) })),
    );
    // Nothing of this webhook is due any more: nothing to take on.
    expect(await recordSuccessesAndHandOff(db, { ended: restEnded, now: plusSeconds(now, 2) })).toEqual([]);
    expect(await statuses()).toEqual(Array(maxInFlightPerWebhook + 2).fill("succeeded"));
    expect(new Set(server.received.map((request) => request.headers["webhook-id"])).size).toBe(maxInFlightPerWebhook + 2);
  });

  it("takes nothing on for a stopped webhook: its deliveries wait for its start", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    await record(account.id);
    await record(account.id);
    const { connection: db } = await database();
    const now = new Date();
    const [first] = await claimDueDeliveries(db, { now, limit: 1, ids: (await deliveriesOf([webhook.id])).map((row) => row.id) });
    await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } });

    const result = await attemptClaimed({ claimed: first, now });
    expect(await recordSuccessesAndHandOff(db, { ended: [{ claimed: first, now, result }], now })).toEqual([]);
    expect((await deliveriesOf([webhook.id])).map((row) => row.status).sort()).toEqual(["pending", "succeeded"]);
  });
});

describe("the embedded runner's delivery lane", () => {
  // A lane claims every due delivery of its database: on PostgreSQL, not the run's shared one.
  ownDatabaseOnPostgres("test_delivery_lane");

  it("is woken by the commit of the event (NOTIFY), with no pass started by the test", async () => {
    const server = await localReceiver(() => ({ status: 204 }));
    const { account, webhook } = await hookedAccount(server);
    const lane = await startedLane();
    try {
      const event = (await record(account.id))!;
      await vi.waitFor(() => expect(server.received.map((request) => request.headers["webhook-id"])).toContain(event.id), {
        timeout: 10_000,
      });
      await vi.waitFor(async () => expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "succeeded" }));
    } finally {
      await lane.stop();
    }
  });

  it("records a fast receiver's outcome, and sends the delivery it frees, while a slow receiver still holds its request", async () => {
    const slow = await localReceiver(() => "hold");
    const fast = await localReceiver(() => ({ status: 204 }));
    const slowHooks = [await hookedAccount(slow), await hookedAccount(slow)];
    const fastHooks = [await hookedAccount(fast), await hookedAccount(fast), await hookedAccount(fast)];
    for (const hooked of [...slowHooks, ...fastHooks]) await record(hooked.account.id);
    // More than the lane claims at once for one webhook: the last goes out only once an earlier outcome has been written.
    for (let i = 0; i < maxClaimedPerWebhook; i++) await record(fastHooks[0].account.id);
    const slowIds = slowHooks.map((hooked) => hooked.webhook.id);
    const fastIds = fastHooks.map((hooked) => hooked.webhook.id);
    const lane = await startedLane();
    try {
      await vi.waitFor(() => expect(slow.received).toHaveLength(2), { timeout: 10_000 });
      await vi.waitFor(
        async () =>
          expect((await deliveriesOf(fastIds)).map((row) => row.status)).toEqual(Array(maxClaimedPerWebhook + 3).fill("succeeded")),
        { timeout: 10_000 },
      );
      // Both slow requests are still open: nothing of theirs is written, and yet every fast outcome is.
      expect(slow.received).toHaveLength(2);
      expect((await deliveriesOf(slowIds)).map((row) => row.status)).toEqual(["delivering", "delivering"]);
      releaseHeld();
      await vi.waitFor(async () => expect((await deliveriesOf(slowIds)).map((row) => row.status)).toEqual(["succeeded", "succeeded"]), {
        timeout: 10_000,
      });
      // Each outcome carries the moment its receiver answered, not the pass's: every fast one before either slow one.
      const latestFast = Math.max(...(await deliveriesOf(fastIds)).map((row) => row.updatedAt.getTime()));
      for (const row of await deliveriesOf(slowIds)) expect(row.updatedAt.getTime()).toBeGreaterThan(latestFast);
    } finally {
      const stopped = lane.stop();
      releaseHeld();
      await stopped;
    }
  });

  it(`drains a backlog with at most ${maxInFlightPerWebhook} requests in flight and ${maxClaimedPerWebhook} claimed per webhook, each delivery sent once, and gives back what it claimed ahead when stopped`, async () => {
    const server = await localReceiver(() => "hold");
    const { account, webhook } = await hookedAccount(server);
    const total = maxClaimedPerWebhook + 2;
    for (let i = 0; i < total; i++) await record(account.id);
    const statuses = async () => (await deliveriesOf([webhook.id])).map((row) => row.status).sort();
    const counted = async () => (await deliveriesOf([webhook.id])).map((row) => row.attempts).sort();
    const lane = await startedLane();
    try {
      // One claim took them all (its requests start after its commit).
      await vi.waitFor(() => expect(server.received).toHaveLength(maxInFlightPerWebhook), { timeout: 10_000 });
      // Claimed ahead beyond the requests; the receiver still has only as many as the cap.
      expect(await statuses()).toEqual([...Array(maxClaimedPerWebhook).fill("delivering"), "pending", "pending"]);
      expect(server.received).toHaveLength(maxInFlightPerWebhook);

      // The answers free the slots: the deliveries claimed ahead go at once (as many as the cap), the
      // last two are claimed in the place of the ended ones.
      releaseHeld();
      await vi.waitFor(() => expect(server.received).toHaveLength(2 * maxInFlightPerWebhook), { timeout: 10_000 });
      await vi.waitFor(async () =>
        expect(await statuses()).toEqual([
          ...Array(total - maxInFlightPerWebhook).fill("delivering"),
          ...Array(maxInFlightPerWebhook).fill("succeeded"),
        ]),
      );
      expect(server.received).toHaveLength(2 * maxInFlightPerWebhook);
    } finally {
      // Stopped with requests held: it waits for them, then gives back those still claimed ahead.
      const stopped = lane.stop();
      releaseHeld();
      await stopped;
    }
    const givenBack = total - 2 * maxInFlightPerWebhook;
    expect(await statuses()).toEqual([...Array(givenBack).fill("pending"), ...Array(2 * maxInFlightPerWebhook).fill("succeeded")]);
    expect(await counted()).toEqual([...Array(givenBack).fill(0), ...Array(2 * maxInFlightPerWebhook).fill(1)]);
    expect(new Set(server.received.map((request) => request.headers["webhook-id"])).size).toBe(2 * maxInFlightPerWebhook);
  });

  it(`does not start a delivery claimed ahead once half its lease has gone: gives it back and claims it again`, async () => {
    const server = await localReceiver(() => "hold");
    const { account, webhook } = await hookedAccount(server);
    for (let i = 0; i < maxClaimedPerWebhook; i++) await record(account.id);
    const rows = async () => (await deliveriesOf([webhook.id])).filter((row) => row.status === "delivering");
    const claimedAt = Date.now();
    // Only Date is faked, standing still where the test puts it; timers and I/O run as ever.
    vi.useFakeTimers({ toFake: ["Date"], now: claimedAt });
    const lane = await startedLane();
    try {
      await vi.waitFor(() => expect(server.received).toHaveLength(maxInFlightPerWebhook), { timeout: 10_000 });
      const firstLease = new Date(claimedAt + deliveryLeaseSeconds * 1000);
      expect((await rows()).map((row) => row.nextAttemptAt)).toEqual(Array(maxClaimedPerWebhook).fill(firstLease));

      const later = claimedAt + (deliveryLeaseSeconds / 2) * 1000 + 1000;
      vi.setSystemTime(later);
      releaseHeld();
      await vi.waitFor(() => expect(server.received).toHaveLength(2 * maxInFlightPerWebhook), { timeout: 10_000 });
      // Those claimed ahead were given back and claimed again (as many as the cap sent now): a lease
      // from now, the attempt counted once.
      const ahead = maxClaimedPerWebhook - maxInFlightPerWebhook;
      await vi.waitFor(async () => expect(await rows()).toHaveLength(ahead));
      const claimedAgain = await rows();
      for (const row of claimedAgain) expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(later + deliveryLeaseSeconds * 1000);
      expect(claimedAgain.map((row) => row.attempts)).toEqual(Array(ahead).fill(1));
    } finally {
      const stopped = lane.stop();
      releaseHeld();
      await stopped;
      vi.useRealTimers();
    }
  });
});
