import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, type Handle } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { findCommand } from "@/lib/adapters/cli/registry";
import type { Transaction } from "@/db/client";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { retryDelaysSeconds } from "@/lib/domain/webhooks/delivery";
import { runClaimedDelivery } from "@/lib/domain/webhooks/delivery/internal/attempt";
import { claimDueDeliveries } from "@/lib/domain/webhooks/delivery/internal/queue";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { operatorCtx } from "../support/fixtures";
import type { LocalServer, ReceivedRequest } from "../support/local-http-server";
import { cli } from "../cli/support";
import { deliver, hookedAccount, localReceiver, onlyDelivery, plusSeconds, verifyingWith, withLocalReceivers } from "./delivery-support";
import { deliveriesOf, keyedAccount, receiver, record, webhookRow } from "./support";
import { setEnv } from "../support/env";
import { onPostgresRun } from "../support/engine";

withLocalReceivers();

const testAuthSecret = process.env.AUTH_SECRET!;
const oldAuthSecret = "an-auth-secret-retired-by-this-test-of-32-characters";
const key = (fill: number) => Buffer.alloc(32, fill).toString("base64");
const [keyA, keyB, keyGone] = [key(0xa1), key(0xb2), key(0xc3)];

/** A receiver answering 204 to requests signed with `secret` (Standard Webhooks), 400 otherwise; and what it received. */
async function receiverFor(secret: () => string): Promise<{ server: LocalServer; received: ReceivedRequest[] }> {
  const received: ReceivedRequest[] = [];
  const server = await localReceiver((request) => {
    received.push(request);
    return verifyingWith(secret())(request);
  });
  return { server, received };
}

describe("AUTH_SECRET rotation with webhooks sealed under it (no ENCRYPTION_KEYS, as in a sandbox)", () => {
  it("a webhook made before the rotation signs with its secret under AUTH_SECRET_PREVIOUS, and after secrets:reencrypt without it", async () => {
    setEnv({ AUTH_SECRET: oldAuthSecret, ENCRYPTION_KEYS: undefined });
    let secret = "";
    const { server, received } = await receiverFor(() => secret);
    const { account, webhook } = await hookedAccount(server);
    secret = webhook.secret;
    await record(account.id, eventTypes.published);
    expect(await deliver(new Date())).toEqual([expect.objectContaining({ status: "succeeded" })]);

    setEnv({ AUTH_SECRET: testAuthSecret, AUTH_SECRET_PREVIOUS: oldAuthSecret });
    await record(account.id, eventTypes.published);
    expect(await deliver(new Date())).toEqual([expect.objectContaining({ status: "succeeded" })]);
    const before = (await webhookRow(webhook.id)).secretSealed;

    const run = await cli("secrets:reencrypt", "--batch-size", "2");
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({ reencrypted: expect.any(Number), already_current: expect.any(Number), unreadable: expect.any(Object) });
    expect(run.result?.reencrypted).toBeGreaterThanOrEqual(1);
    const after = (await webhookRow(webhook.id)).secretSealed;
    expect(after).not.toBe(before);
    expect(after).toMatch(/^v1\./);

    setEnv({ AUTH_SECRET_PREVIOUS: undefined });
    await record(account.id, eventTypes.published);
    expect(await deliver(new Date())).toEqual([expect.objectContaining({ status: "succeeded" })]);
    expect(received).toHaveLength(3);

    // Idempotent: a second run leaves the re-encrypted secret as it is.
    expect((await cli("secrets:reencrypt")).exitCode).toBe(0);
    expect((await webhookRow(webhook.id)).secretSealed).toBe(after);
  });
});

class RolledBack extends Error {}

/**
 * On PostgreSQL every test file shares the database, and re-encrypting seals every file's webhooks
 * under this test's keys, which the other files do not hold: the rotation runs in a transaction
 * rolled back at the end, so no other file ever reads a value sealed under them.
 */
async function inRolledBackTransaction(fn: (tx: Transaction) => Promise<void>): Promise<void> {
  const { connection } = await database();
  await expect(
    connection.transaction(async (tx) => {
      await fn(tx);
      throw new RolledBack();
    }),
  ).rejects.toBeInstanceOf(RolledBack);
}

/** One pass of the delivery engine over the pending deliveries of these webhooks, on `db`. */
async function deliverOn(db: Handle, webhookIds: string[]) {
  const due = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.webhookId, webhookIds), eq(webhookDeliveries.status, "pending")));
  const now = new Date();
  const claimed = await claimDueDeliveries(db, { now, limit: 10, ids: due.map((row) => row.id) });
  return Promise.all(claimed.map((one) => runClaimedDelivery(db, { claimed: one, now })));
}

describe("ENCRYPTION_KEYS rotation", () => {
  it("A then B (A listed), secrets:reencrypt, A dropped: the webhook signs with the same secret throughout", async () => {
    const account = await keyedAccount();
    const received: ReceivedRequest[] = [];
    let secret = "";
    const server = await localReceiver((request) => {
      received.push(request);
      return verifyingWith(secret)(request);
    });
    await inRolledBackTransaction(async (tx) => {
      const ctx = { ...account.ctx, db: tx };
      const publish = () => recordEvent(tx, { accountId: account.id, type: eventTypes.published, data: { code: "X1" }, now: new Date() });
      const sealedOf = async (id: string) => (await tx.select().from(webhooks).where(eq(webhooks.id, id)))[0].secretSealed;

      setEnv({ ENCRYPTION_KEYS: `gone:${keyGone}` });
      const orphan = await createWebhook({ ctx, input: { url: receiver, events: [eventTypes.published] } });
      setEnv({ ENCRYPTION_KEYS: `a:${keyA}` });
      const webhook = await createWebhook({ ctx, input: { url: receiver, events: [eventTypes.published] } });
      secret = webhook.secret;
      for (const id of [webhook.id, orphan.id])
        await tx
          .update(webhooks)
          .set({ url: `${server.origin}/hook` })
          .where(eq(webhooks.id, id));
      expect(await sealedOf(webhook.id)).toMatch(/^v2\.a\./);
      await publish();
      expect(await deliverOn(tx, [webhook.id])).toEqual([expect.objectContaining({ status: "succeeded" })]);

      setEnv({ ENCRYPTION_KEYS: `b:${keyB},a:${keyA}` });
      await publish();
      expect(await deliverOn(tx, [webhook.id])).toEqual([expect.objectContaining({ status: "succeeded" })]);

      const reencrypt = findCommand("secrets:reencrypt");
      const operator = { ...(await operatorCtx()), db: tx };
      const first = await reencrypt.execute(operator, { "batch-size": "1" });
      expect(first).toMatchObject({ reencrypted: expect.any(Number), unreadable: expect.objectContaining({ gone: 1 }) });
      expect(first.reencrypted).toBeGreaterThanOrEqual(1);
      const resealed = await sealedOf(webhook.id);
      expect(resealed).toMatch(/^v2\.b\./);

      const second = await reencrypt.execute(operator, {});
      expect(await sealedOf(webhook.id)).toBe(resealed);
      expect(second).toMatchObject({ unreadable: expect.objectContaining({ gone: 1 }) });
      // Only this file writes to its embedded database; on PostgreSQL other files may add webhooks between the runs.
      if (!onPostgresRun) expect(second).toMatchObject({ reencrypted: 0 });

      setEnv({ ENCRYPTION_KEYS: `b:${keyB}` });
      await publish();
      expect(await deliverOn(tx, [webhook.id])).toEqual([expect.objectContaining({ status: "succeeded" })]);
      expect(received).toHaveLength(3);
      expect(new Set(received.map((request) => request.headers["webhook-signature"])).size).toBe(3);

      // The orphan's secret needs key "gone": its attempt is not sent and fails in words an operator can act on.
      const outcomes = await deliverOn(tx, [orphan.id]);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes).toEqual(outcomes.map(() => expect.objectContaining({ status: "retrying", error: "secret_unreadable" })));
      expect(received).toHaveLength(3);
      const attempted = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, orphan.id));
      expect(attempted.filter((row) => row.attempts > 0).map((row) => row.lastError)).toEqual(outcomes.map(() => "secret_unreadable"));
    });
  });

  it("a delivery whose secret needs an unlisted key id is recorded as secret_unreadable and retried; restoring the key lets it go", async () => {
    setEnv({ ENCRYPTION_KEYS: `gone:${keyGone}` });
    let secret = "";
    const { server, received } = await receiverFor(() => secret);
    const { account, webhook } = await hookedAccount(server);
    secret = webhook.secret;
    // This webhook's value is sealed under a key the rest of the run never lists; other files never read it.
    setEnv({ ENCRYPTION_KEYS: `b:${keyB}` });
    await record(account.id, eventTypes.published);
    const now = new Date();
    expect(await deliver(now)).toEqual([expect.objectContaining({ status: "retrying", error: "secret_unreadable" })]);
    expect(received).toEqual([]);
    expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "pending", lastError: "secret_unreadable", lastStatusCode: null });

    setEnv({ ENCRYPTION_KEYS: `b:${keyB},gone:${keyGone}` });
    // The first retry's time: within the receiver's 5-minute window around its own clock.
    expect(await deliver(plusSeconds(now, retryDelaysSeconds[0]))).toEqual([expect.objectContaining({ status: "succeeded" })]);
    expect(received).toHaveLength(1);
    expect((await deliveriesOf([webhook.id]))[0]).toMatchObject({ status: "succeeded" });
  });
});
