import { and, desc, eq, lt, sql } from "drizzle-orm";
import { accounts, sandboxWebhookReceipts, webhooks } from "@/db/schema";
import { config } from "@/lib/base/config";
import type { AccountActor, PublicActor, ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { verifyWebhook } from "./signature";
import { signingSecretOf } from "./webhook-signing-secret";

/**
 * The sandbox's webhook receiver: an address per account where the sandbox's own webhooks deliver,
 * standing in for an integrator's server, and a page showing what arrived. Sandbox only: in
 * production the receiver and its page are not found.
 */

/** At most this many receipts are kept per account (older ones go first), as the address takes anyone's posts. */
export const receiptsKept = 100;

/** A body larger than this is refused before it is read whole (an event is a few hundred bytes). */
export const maxReceiptBytes = 256 * 1024;

const headerNames = ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type", "user-agent"] as const;

export type SandboxReceipt = typeof sandboxWebhookReceipts.$inferSelect;

export const sandboxReceiverEnabled = (): boolean => config().APP_ENV === "sandbox";

/** The path of an account's receiver, under the portal's origin. */
export const sandboxReceiverPath = (accountId: string): string => `/sandbox/webhooks/receive/${accountId}`;

/** The address a webhook is given to deliver to the account's receiver. */
export const sandboxReceiverUrl = (accountId: string): string => `${config().APP_URL.replace(/\/+$/, "")}${sandboxReceiverPath(accountId)}`;

function receiverInUse(): void {
  if (!sandboxReceiverEnabled()) throw new AppError("not_found");
}

const accountIdPattern = idPattern("account");

/**
 * One delivery arriving at an account's receiver: verified the way the integrator guide says, with
 * the secrets of the account's webhooks (its own and its apps'), and kept whether it verified or
 * not, so the page shows a forged or stale one flagged. An unknown account is not found and nothing
 * is kept. Answers whether it verified: the route answers 204, or 401 so that the sender retries.
 */
export async function receiveSandboxDelivery({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: { accountId: string; headers: Headers; body: string };
}): Promise<{ verified: boolean }> {
  receiverInUse();
  if (!accountIdPattern.test(input.accountId)) throw new AppError("not_found");
  const [account] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, input.accountId));
  if (!account) throw new AppError("not_found");

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
