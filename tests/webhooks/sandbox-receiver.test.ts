import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/sandbox/webhooks/receive/[token]/route";
import { database } from "@/db";
import { sandboxWebhookReceipts, webhooks } from "@/db/schema";
import { systemContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { createWebhookFor } from "@/lib/domain/webhooks/create-webhook";
import {
  listSandboxReceipts,
  receiptsKept,
  sandboxReceiverToken,
  sandboxReceiverUrl,
  upgradeSandboxReceiverUrls,
} from "@/lib/domain/webhooks/sandbox-receiver";
import { rateRules, resetRateLimiter } from "@/lib/infra/rate-limit";
import { sendTestDelivery } from "@/lib/domain/webhooks/send-test-delivery";
import { newWebhookSecret, signWebhook } from "@/lib/domain/webhooks/signature";
import { operatorCtx } from "../support/fixtures";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { freshAccount, signedIn } from "../portal-services/support";
import { restoreEnv, setEnv } from "../support/env";

const servers: LocalServer[] = [];

beforeEach(() => setEnv({ APP_ENV: "sandbox", UNSAFE_ALLOW_LOCAL_URLS: "1" }));
afterEach(async () => {
  restoreEnv();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fresh account with a webhook pointing at its receiver address, and that webhook's secret. */
async function accountWithReceiverWebhook() {
  const account = await freshAccount();
  const webhook = await createWebhookFor({
    ctx: await operatorCtx(),
    input: { account_id: account.id, url: sandboxReceiverUrl(account.id), events: ["listing.published"] },
  });
  return { account, webhook };
}

/** Posts to the receiver address of `token` (an account's: `sandboxReceiverToken`) as a sender would, signed with `secret` at `timestamp` unless headers are given. */
async function post(token: string, options: { body: string; secret?: string; timestamp?: number; headers?: Record<string, string> }) {
  const id = `evt_${newId("request").slice(4)}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers =
    options.headers ??
    (options.secret
      ? {
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook({ secret: options.secret, id, timestamp, body: options.body }),
        }
      : {});
  const request = new Request(`http://localhost:3000/sandbox/webhooks/receive/${encodeURIComponent(token)}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: options.body,
  });
  return POST(request, { params: Promise.resolve({ token }) });
}

const receiptsOf = async (accountId: string) =>
  (await listSandboxReceipts({ ctx: await signedIn(await accountById(accountId)), input: { limit: 200 } })).receipts;

const accounts = new Map<string, Awaited<ReturnType<typeof freshAccount>>>();
async function accountById(id: string) {
  return accounts.get(id)!;
}

const event = (type = "listing.published") =>
  JSON.stringify({ id: "evt_1", type, created_at: new Date().toISOString(), data: { code: "AB12CD34", status: "active" } });

describe("the sandbox's webhook receiver", () => {
  it("accepts a delivery signed with the secret of one of the account's webhooks (204) and keeps it as verified", async () => {
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    const body = event();

    const response = await post(sandboxReceiverToken(account.id), { body, secret: webhook.secret });

    expect(response.status).toBe(204);
    const [receipt] = await receiptsOf(account.id);
    expect(receipt).toMatchObject({ verified: true, failure: null, webhookId: webhook.id, eventType: "listing.published", body });
    expect(receipt.headers).toMatchObject({ "webhook-id": expect.stringMatching(/^evt_/), "content-type": "application/json" });
  });

  it("flags a bad signature, a stale timestamp and missing headers (401 each), keeping them unverified with the reason", async () => {
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);

    expect((await post(sandboxReceiverToken(account.id), { body: event("listing.sold"), secret: newWebhookSecret() })).status).toBe(401);
    expect(
      (
        await post(sandboxReceiverToken(account.id), {
          body: event("listing.paused"),
          secret: webhook.secret,
          timestamp: Math.floor(Date.now() / 1000) - 600,
        })
      ).status,
    ).toBe(401);
    expect((await post(sandboxReceiverToken(account.id), { body: "not json <script>", headers: {} })).status).toBe(401);

    const receipts = await receiptsOf(account.id);
    expect(receipts.map((receipt) => [receipt.eventType, receipt.verified, receipt.failure, receipt.webhookId])).toEqual([
      [null, false, "missing_headers", null],
      ["listing.paused", false, "timestamp_out_of_range", null],
      ["listing.sold", false, "signature_mismatch", null],
    ]);
    // Kept as it came: the page escapes it when it shows it.
    expect(receipts[0].body).toBe("not json <script>");
  });

  it("receives the platform's own signed delivery over HTTP (the webhook's Send a test)", async () => {
    const server = await startHttpServer((request, res) => {
      const forwarded = new Request(`http://127.0.0.1${request.url}`, {
        method: request.method,
        headers: Object.entries(request.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])) as [
          string,
          string,
        ][],
        body: request.body,
      });
      const token = request.url.split("/").pop()!;
      void POST(forwarded, { params: Promise.resolve({ token }) }).then((answer) => {
        res.statusCode = answer.status;
        res.end();
      });
    });
    servers.push(server);
    setEnv({ APP_URL: server.origin });
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    expect(webhook.url).toBe(`${server.origin}/sandbox/webhooks/receive/${sandboxReceiverToken(account.id)}`);

    const result = await sendTestDelivery({ ctx: await operatorCtx(), input: { id: webhook.id } });

    expect(result).toMatchObject({ ok: true, status: 204 });
    const [receipt] = await receiptsOf(account.id);
    expect(receipt).toMatchObject({ verified: true, webhookId: webhook.id, eventType: "webhook.test", messageId: result.event_id });
    expect(JSON.parse(receipt.body)).toMatchObject({ id: result.event_id, type: "webhook.test" });
  });

  it("shows an account only its own receipts and keeps the latest 100 per account", async () => {
    const [ana, bob] = [await accountWithReceiverWebhook(), await accountWithReceiverWebhook()];
    accounts.set(ana.account.id, ana.account);
    accounts.set(bob.account.id, bob.account);
    await post(sandboxReceiverToken(ana.account.id), { body: event("listing.sold"), secret: ana.webhook.secret });
    expect(await receiptsOf(bob.account.id)).toEqual([]);
    // Bob's secret does not verify at Ana's address: each address checks its own account's webhooks.
    expect((await post(sandboxReceiverToken(ana.account.id), { body: event(), secret: bob.webhook.secret })).status).toBe(401);

    const { connection: db } = await database();
    await db
      .insert(sandboxWebhookReceipts)
      .values(Array.from({ length: receiptsKept }, () => ({ accountId: ana.account.id, verified: false, headers: {}, body: "{}" })));
    await post(sandboxReceiverToken(ana.account.id), { body: event("listing.rejected"), secret: ana.webhook.secret });
    const kept = await db.select().from(sandboxWebhookReceipts).where(eq(sandboxWebhookReceipts.accountId, ana.account.id));
    expect(kept).toHaveLength(receiptsKept);
    expect(kept.some((receipt) => receipt.eventType === "listing.rejected")).toBe(true);
  });

  it("keeps nothing from posts to an address that is no account's receiver, and answers them as a known address's unsigned post", async () => {
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    await post(sandboxReceiverToken(account.id), { body: event("listing.sold"), secret: webhook.secret });
    const before = await receiptsOf(account.id);
    const token = sandboxReceiverToken(account.id);
    const [, signature] = token.split(".");
    const otherSignature = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    const stranger = newId("account");

    const known = await post(token, { body: event(), headers: {} });
    const forged = [
      account.id, // the address before tokens: the bare account id
      `${account.id}.${otherSignature}`,
      `${account.id}.${signature}.x`,
      `${token}=`, // the same signature's bytes to a lenient base64 decoder
      `${token}!`,
      `${account.id}.`,
      sandboxReceiverToken(stranger), // signed by this server, for an account that does not exist
      `${stranger}.${signature}`,
      "../../etc",
    ];
    const answer = async (response: Response) => ({
      status: response.status,
      type: response.headers.get("content-type"),
      body: await response.text(),
    });
    const expected = await answer(known);
    expect(expected.status).toBe(401);
    for (const address of forged) {
      expect(await answer(await post(address, { body: event(), secret: webhook.secret })), address).toEqual(expected);
      expect(await answer(await post(address, { body: event(), headers: {} })), address).toEqual(expected);
    }
    const after = await receiptsOf(account.id);
    // The known address's own unsigned post is the only receipt added.
    expect(after.slice(1)).toEqual(before);
    expect(after[0]).toMatchObject({ verified: false, failure: "missing_headers" });
    const { connection: db } = await database();
    expect(await db.select().from(sandboxWebhookReceipts).where(eq(sandboxWebhookReceipts.accountId, stranger))).toEqual([]);
  });

  it("limits the posts to each address: over the limit a 429 problem with Retry-After; another address keeps its own count", async () => {
    resetRateLimiter();
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    const unknown = `${newId("account")}.not-a-signature`;
    for (let i = 0; i < rateRules.sandboxReceiver.limit; i++) expect((await post(unknown, { body: "{}", headers: {} })).status).toBe(401);

    const refused = await post(unknown, { body: event(), secret: webhook.secret });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    expect(await refused.json()).toMatchObject({ status: 429, code: "too_many_requests" });
    // Another address has its own count: the account's real deliveries still land.
    expect((await post(sandboxReceiverToken(account.id), { body: event(), secret: webhook.secret })).status).toBe(204);
  });

  it("moves webhooks given this server's account-id receiver address to the account's signed one, and no other", async () => {
    const { account } = await accountWithReceiverWebhook();
    const other = await accountWithReceiverWebhook();
    const { connection: db } = await database();
    const origin = "http://localhost:3000";
    setEnv({ APP_URL: origin });
    const legacy = `${origin}/sandbox/webhooks/receive/${account.id}`;
    const elsewhere = `https://other.example/sandbox/webhooks/receive/${other.account.id}`;
    await db.update(webhooks).set({ url: legacy }).where(eq(webhooks.accountId, account.id));
    await db.update(webhooks).set({ url: elsewhere }).where(eq(webhooks.accountId, other.account.id));

    expect(await upgradeSandboxReceiverUrls({ ctx: systemContext(await database()) })).toBeGreaterThanOrEqual(1);

    const [moved] = await db.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.accountId, account.id));
    expect(moved.url).toBe(`${origin}/sandbox/webhooks/receive/${sandboxReceiverToken(account.id)}`);
    expect(moved.url).toBe(sandboxReceiverUrl(account.id));
    const [kept] = await db.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.accountId, other.account.id));
    expect(kept.url).toBe(elsewhere);
    expect(await upgradeSandboxReceiverUrls({ ctx: systemContext(await database()) })).toBe(0);
  });

  it("refuses a body over 256 KB with 413 and keeps nothing", async () => {
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    const response = await post(sandboxReceiverToken(account.id), {
      body: JSON.stringify({ type: "listing.published", pad: "x".repeat(300_000) }),
      secret: webhook.secret,
    });
    expect(response.status).toBe(413);
    expect(await receiptsOf(account.id)).toEqual([]);
  });

  it("does not exist in production: the route answers 404 and keeps nothing, the page's service is not found", async () => {
    const { account, webhook } = await accountWithReceiverWebhook();
    accounts.set(account.id, account);
    setEnv({ APP_ENV: "production", UNSAFE_ALLOW_LOCAL_URLS: "0" });

    expect((await post(sandboxReceiverToken(account.id), { body: event(), secret: webhook.secret })).status).toBe(404);
    await expect(listSandboxReceipts({ ctx: await signedIn(account), input: { limit: 10 } })).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === "not_found",
    );
    setEnv({ APP_ENV: "sandbox" });
    expect(await receiptsOf(account.id)).toEqual([]);
  });
});
