import { and, eq, sql } from "drizzle-orm";
import { accounts, apiKeys, listingFeeds } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError, notFound, ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { publicWebhookUrl } from "@/lib/domain/webhooks/fields";
import { feedInput, renderFeed, type FeedView } from "./fields";
import { defaultFeedIntervalMinutes, maxFeedsPerAccount } from "./limits";

/**
 * `POST /feeds` and the portal's form: a feed of the caller's account, due at once (its first pull is
 * the scheduler's next pass). Its imports are written as a key: the calling key through the API; in
 * the portal, the key the owner chose (`keyId`: one of the account's working keys with
 * `listings:write`). The URL is checked like a webhook's (`https://`, a public host) before the
 * transaction; at most `maxFeedsPerAccount` feeds, counted under the account row's lock.
 */
export async function createFeed({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { fields: unknown; keyId?: string };
}): Promise<FeedView> {
  const fields = parseOrThrow(feedInput, input.fields);
  const url = await publicWebhookUrl(fields.url);
  const keyId = ctx.actor.kind === "api" ? ctx.actor.keyId : input.keyId;
  return withTransaction(ctx, async (tx) => {
    const [account] = await tx.db
      .select({ id: accounts.id, active: accounts.active })
      .from(accounts)
      .where(eq(accounts.id, ctx.actor.accountId))
      .for("update");
    if (!account || !account.active) throw notFound();
    if (ctx.actor.kind !== "api") await checkWritingKey(tx, keyId);
    const [{ count }] = await tx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(listingFeeds)
      .where(eq(listingFeeds.accountId, account.id));
    if (count >= maxFeedsPerAccount) throw new AppError("limit_reached", { reason: "too_many_feeds", limit: maxFeedsPerAccount });
    const [row] = await tx.db
      .insert(listingFeeds)
      .values({
        id: newId("feed"),
        accountId: account.id,
        keyId: keyId!,
        url,
        mode: fields.mode ?? "upsert",
        maxWithdrawals: fields.mode === "full" ? (fields.max_withdrawals ?? null) : null,
        intervalMinutes: fields.interval_minutes ?? defaultFeedIntervalMinutes,
        nextPullAt: tx.now,
        createdAt: tx.now,
      })
      .returning();
    return renderFeed(row, false);
  });
}

/** The portal's chosen key: the account's, neither revoked nor expired, allowed to write listings. */
async function checkWritingKey(tx: ServiceContext<AccountActor>, id: string | undefined): Promise<void> {
  const [key] = id
    ? await tx.db
        .select({ permissions: apiKeys.permissions, revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt })
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, tx.actor.accountId)))
    : [];
  if (!key || key.revokedAt || key.expiresAt <= tx.now || !key.permissions.includes("listings:write")) {
    throw new ValidationError([{ pointer: "/key_id", code: "invalid_value", params: { reason: "feed_key_unusable" } }]);
  }
}
