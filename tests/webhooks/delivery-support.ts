import { and, eq, inArray, lte } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach } from "vitest";
import { database } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import { runClaimedDelivery } from "@/lib/domain/webhooks/delivery/internal/attempt";
import { claimDueDeliveries } from "@/lib/domain/webhooks/delivery/internal/queue";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { deliveriesOf, keyedAccount, webhookOf } from "./support";
import { restoreEnv, setEnv } from "../support/env";

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hold";

const servers: LocalServer[] = [];
/**
 * The webhooks this test file pointed at its receivers. On PostgreSQL every test file shares one
 * database: passes claim and clean up only these, never another file's deliveries.
 */
const ownWebhooks = new Set<string>();
const held: (() => void)[] = [];

/** Local receivers may be used (UNSAFE_ALLOW_LOCAL_URLS=1) and are closed after each test. */
export function withLocalReceivers(): void {
  beforeEach(() => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  });
  afterEach(async () => {
    held.splice(0).forEach((release) => release());
    restoreEnv();
    await Promise.all(servers.splice(0).map((server) => server.close()));
    // Each test starts with no delivery left due by the ones before it (passes claim every due delivery).
    if (ownWebhooks.size === 0) return;
    const { connection: db } = await database();
    await db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null })
      .where(and(inArray(webhookDeliveries.webhookId, [...ownWebhooks]), inArray(webhookDeliveries.status, ["pending", "delivering"])));
  });
}

/** A real HTTP receiver; `"hold"` keeps the request open until `releaseHeld()` (or the test ends). */
export async function localReceiver(answer: (request: ReceivedRequest) => Answer): Promise<LocalServer> {
  const server = await startHttpServer((request, res) => {
    const reply = answer(request);
    if (reply === "hold") {
      held.push(() => res.writeHead(204).end());
      return;
    }
    res.writeHead(reply.status, reply.headers ?? {}).end(reply.body ?? "");
  });
  servers.push(server);
  return server;
}

export function releaseHeld(): void {
  held.splice(0).forEach((release) => release());
}

/** What a Standard Webhooks receiver does: 204 when the signature (and its timestamp) holds, else 400. */
export const verifyingWith =
  (secret: string) =>
  (request: ReceivedRequest): Answer => {
    try {
      new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
      return { status: 204 };
    } catch {
      return { status: 400, body: "bad signature" };
    }
  };

/** Webhooks are created with a public https address; the test then points them at its local receiver. */
export async function pointAt(webhookId: string, url: string): Promise<void> {
  const { connection: db } = await database();
  await db.update(webhooks).set({ url }).where(eq(webhooks.id, webhookId));
  ownWebhooks.add(webhookId);
}

/** A keyed account with one webhook (listing.published) delivering to `server`. */
export async function hookedAccount(server: LocalServer) {
  const account = await keyedAccount();
  const webhook = await webhookOf(account.ctx);
  await pointAt(webhook.id, `${server.origin}/hook`);
  return { account, webhook };
}

/** A pass of the delivery engine over this file's due deliveries (the runner's claim and attempts, narrowed by id). */
export async function deliver(now: Date, options: { limit?: number; timeoutMs?: number } = {}) {
  const { connection: db } = await database();
  if (ownWebhooks.size === 0) return [];
  const d = webhookDeliveries;
  const due = await db
    .select({ id: d.id })
    .from(d)
    .where(and(inArray(d.webhookId, [...ownWebhooks]), inArray(d.status, ["pending", "delivering"]), lte(d.nextAttemptAt, now)));
  const claimed = await claimDueDeliveries(db, { now, limit: options.limit ?? 50, ids: due.map((row) => row.id) });
  return Promise.all(claimed.map((one) => runClaimedDelivery(db, { claimed: one, now, timeoutMs: options.timeoutMs })));
}

export async function onlyDelivery(webhookId: string) {
  const rows = await deliveriesOf([webhookId]);
  if (rows.length !== 1) throw new Error(`expected one delivery of ${webhookId}, found ${rows.length}`);
  return rows[0];
}

export const plusSeconds = (at: Date, seconds: number): Date => new Date(at.getTime() + seconds * 1000);
