import { createHmac, timingSafeEqual } from "node:crypto";
import { and, desc, eq, like, lt, sql } from "drizzle-orm";
import { accounts, sandboxWebhookReceipts, webhooks } from "@/db/schema";
import { derivedKeys } from "@/lib/base/auth-secret";
import { config } from "@/lib/base/config";
import { withTransaction, type AccountActor, type PublicActor, type ServiceContext, type SystemActor } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { rateLimiter, rateRules } from "@/lib/infra/rate-limit";
import { verifyWebhook } from "./signature";
import { signingSecretOf } from "./webhook-signing-secret";

/**
 * The sandbox's webhook receiver: an address per account where the sandbox's own webhooks deliver,
 * standing in for an integrator's server, and a page showing what arrived. Sandbox only: in
 * production the receiver and its page are not found.
 *
 * The address is the account's id signed with a key derived from the auth secret
 * (`{account id}.{HMAC}`), so only those shown it (the account, on its page) can post to it: a bare
 * account id would let anyone replace an account's receipts and learn which ids exist. Every other
 * address, and one of an account that no longer exists, is answered as a delivery whose signature did
 * not verify, and nothing is kept.
 */

/** At most this many receipts are kept per account (older ones go first), as the address takes anyone's posts. */
export const receiptsKept = 100;

/** A body larger than this is refused before it is read whole (an event is a few hundred bytes). */
export const maxReceiptBytes = 256 * 1024;

const headerNames = ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type", "user-agent"] as const;

export type SandboxReceipt = typeof sandboxWebhookReceipts.$inferSelect;

export const sandboxReceiverEnabled = (): boolean => config().APP_ENV === "sandbox";

const receiverBasePath = "/sandbox/webhooks/receive/";

/** The keys receiver addresses are signed with, one per auth secret (the current one first, then `AUTH_SECRET_PREVIOUS`). */
const receiverKeys = derivedKeys("sandbox webhook receiver");

const signatureOf = (key: Buffer, accountId: string): Buffer => createHmac("sha256", key).update(accountId).digest();

/** The account's receiver token: its id and the HMAC of it under the current key. */
export const sandboxReceiverToken = (accountId: string): string =>
  `${accountId}.${signatureOf(receiverKeys()[0], accountId).toString("base64url")}`;

/**
 * The account a receiver token was made for, under the current key or one it replaced; null for any
 * other text. The signature's text is compared, not its decoded bytes: a lenient base64 decoder would
 * take variants of one token (padding, stray characters), each with a rate-limit count of its own.
 */
function accountOfToken(token: string): string | null {
  const [accountId, signature, ...rest] = token.split(".");
  if (rest.length > 0 || signature === undefined || !accountIdPattern.test(accountId)) return null;
  const given = Buffer.from(signature);
  const valid = receiverKeys().some((key) => {
    const expected = Buffer.from(signatureOf(key, accountId).toString("base64url"));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return valid ? accountId : null;
}

/** The path of an account's receiver, under the portal's origin. */
export const sandboxReceiverPath = (accountId: string): string => `${receiverBasePath}${sandboxReceiverToken(accountId)}`;

const origin = (): string => config().APP_URL.replace(/\/+$/, "");

/** The address a webhook is given to deliver to the account's receiver. */
export const sandboxReceiverUrl = (accountId: string): string => `${origin()}${sandboxReceiverPath(accountId)}`;

function receiverInUse(): void {
  if (!sandboxReceiverEnabled()) throw new AppError("not_found");
}

const accountIdPattern = idPattern("account");

/**
 * One delivery arriving at a receiver address (`token`, the last segment of its path): verified the
 * way the integrator guide says, with the secrets of the account's webhooks (its own and its apps'),
 * and kept whether it verified or not, so the page shows a forged or stale one flagged. An address
 * that is no account's receiver keeps nothing and answers as an unverified delivery, so the answer
 * never tells one from the other. Posts to one address are limited (`rateRules.sandboxReceiver`,
 * 429 `too_many_requests`), which bounds how fast its account's kept receipts can be replaced.
 * Answers whether it verified: the route answers 204, or 401 so that the sender retries.
 */
export async function receiveSandboxDelivery({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: { token: string; headers: Headers; body: string };
}): Promise<{ verified: boolean }> {
  receiverInUse();
  const rate = await rateLimiter().hit(input.token.slice(0, 200), rateRules.sandboxReceiver);
  if (rate.limited) {
    throw new AppError(
      "too_many_requests",
      { limit: rate.limit, retry_after: rate.resetSeconds },
      {},
      { "Retry-After": String(rate.resetSeconds) },
    );
  }
  const accountId = accountOfToken(input.token);
  if (!accountId) return { verified: false };
  const [account] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
  if (!account) return { verified: false };

  const candidates = await ctx.db
    .select({ id: webhooks.id, secretSealed: webhooks.secretSealed })
    .from(webhooks)
    .where(eq(webhooks.accountId, account.id));
  const secrets = candidates.flatMap((row) => {
    const secret = signingSecretOf(row);
    return secret ? [{ id: row.id, secret }] : [];
  });
  const verification = verifyWebhook({
    secrets: secrets.map((candidate) => candidate.secret),
    headers: {
      id: input.headers.get("webhook-id"),
      timestamp: input.headers.get("webhook-timestamp"),
      signature: input.headers.get("webhook-signature"),
    },
    body: input.body,
    nowSeconds: Math.floor(ctx.now.getTime() / 1000),
  });
  const webhookId = verification.ok ? (secrets.find((candidate) => candidate.secret === verification.secret)?.id ?? null) : null;

  const headers: Record<string, string> = {};
  for (const name of headerNames) {
    const value = input.headers.get(name);
    if (value !== null) headers[name] = value.slice(0, 1000);
  }
  await ctx.db.insert(sandboxWebhookReceipts).values({
    accountId: account.id,
    webhookId,
    verified: verification.ok,
    failure: verification.ok ? null : verification.reason,
    messageId: input.headers.get("webhook-id")?.slice(0, 200) ?? null,
    eventType: eventTypeOf(input.body),
    headers,
    // PostgreSQL text holds no U+0000 (STACK.md); the page shows the body as text anyway.
    body: input.body.replace(/\u0000/g, "\uFFFD"),
    receivedAt: ctx.now,
  });
  await ctx.db
    .delete(sandboxWebhookReceipts)
    .where(
      and(
        eq(sandboxWebhookReceipts.accountId, account.id),
        lt(
          sandboxWebhookReceipts.id,
          sql`(select min(id) from (select id from ${sandboxWebhookReceipts} where account_id = ${account.id} order by id desc limit ${receiptsKept}) kept)`,
        ),
      ),
    );
  return { verified: verification.ok };
}

function eventTypeOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const type = parsed && typeof parsed === "object" ? (parsed as { type?: unknown }).type : undefined;
    return typeof type === "string" ? type.slice(0, 100) : null;
  } catch {
    return null;
  }
}

/** The signed-in account's receipts, newest first, with its receiver's address. */
export async function listSandboxReceipts({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { limit: number };
}): Promise<{ url: string; receipts: SandboxReceipt[] }> {
  receiverInUse();
  const receipts = await ctx.db
    .select()
    .from(sandboxWebhookReceipts)
    .where(eq(sandboxWebhookReceipts.accountId, ctx.actor.accountId))
    .orderBy(desc(sandboxWebhookReceipts.receivedAt), desc(sandboxWebhookReceipts.id))
    .limit(input.limit);
  return { url: sandboxReceiverUrl(ctx.actor.accountId), receipts };
}

/**
 * Webhooks given a receiver address of the form before tokens (`{APP_URL}/sandbox/webhooks/receive/{account id}`,
 * which the seed and the page gave out) point at the same account's tokened address instead: such an
 * address is answered as unverified now, so their deliveries would fail. Run at each sandbox start-up
 * (only this server's own origin is rewritten; an address elsewhere is its owner's). Answers how many changed.
 */
export async function upgradeSandboxReceiverUrls({ ctx }: { ctx: ServiceContext<SystemActor> }): Promise<number> {
  receiverInUse();
  const legacyBase = `${origin()}${receiverBasePath}`;
  return withTransaction(ctx, async (tx) => {
    const pointing = await tx.db
      .select({ id: webhooks.id, url: webhooks.url })
      .from(webhooks)
      .where(like(webhooks.url, `${legacyBase.replace(/[\\%_]/g, "\\$&")}%`))
      .for("update");
    let changed = 0;
    for (const webhook of pointing) {
      const accountId = webhook.url.slice(legacyBase.length);
      if (!accountIdPattern.test(accountId)) continue;
      await tx.db
        .update(webhooks)
        .set({ url: sandboxReceiverUrl(accountId) })
        .where(eq(webhooks.id, webhook.id));
      changed += 1;
    }
    return changed;
  });
}
