import { eq, sql } from "drizzle-orm";
import { accounts, agencyMembers, apiKeys, listingFeeds, type FeedPullOutcome, type ListingFeed } from "@/db/schema";
import { apiContext, withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { startImport } from "@/lib/domain/imports/start-import";
import { fetchFeed, type Fetched } from "./internal/fetch-feed";
import { reportFailingFeed } from "./internal/health";

/** The refusals of `startImport` a feed's file can meet: the pull failed, nothing imported. */
const importRefusals = new Set(["import_empty", "import_too_many_lines", "import_in_progress"]);

export type PullResult = { outcome: FeedPullOutcome | "gone"; importId?: string; mailed?: boolean };

/**
 * The pull job (`feeds.pull`): checks that the feed's key may still write (as an import's batches
 * do), fetches the file (`fetchFeed`: a `304` is `unchanged`, nothing imported), and applies a new
 * one as an import of the account written as the feed's key (`startImport`, with `feed_id`), whose
 * report is the import's. Records the outcome on the feed and ends its claim; only a file imported
 * keeps its `ETag` / `Last-Modified` for the next pull's conditional GET, so a failed one is
 * fetched whole again. A failed pull may report the feed failing (`reportFailingFeed`).
 */
export async function pullFeed({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { feedId: string; timeoutMs?: number };
}): Promise<PullResult> {
  const [found] = await ctx.db
    .select({ feed: listingFeeds, revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt, active: accounts.active })
    .from(listingFeeds)
    .leftJoin(apiKeys, eq(apiKeys.id, listingFeeds.keyId))
    .innerJoin(accounts, eq(accounts.id, listingFeeds.accountId))
    .where(eq(listingFeeds.id, input.feedId));
  if (!found) return { outcome: "gone" };
  const { feed } = found;
  const now = ctx.clock();
  const keyProblem = !found.active
    ? "account_inactive"
    : !found.expiresAt || found.revokedAt
      ? "key_revoked"
      : found.expiresAt <= now
        ? "key_expired"
        : null;
  const fetched: Fetched = keyProblem
    ? { kind: "failed", status: null, errorCode: keyProblem }
    : await fetchFeed(feed.url, { etag: feed.etag, lastModified: feed.lastModified }, input.timeoutMs);
  if (fetched.kind !== "changed") return record(ctx, feed, fetched);

  const [membership] = await ctx.db
    .select({ id: agencyMembers.agencyId, role: agencyMembers.role })
    .from(agencyMembers)
    .where(eq(agencyMembers.accountId, feed.accountId));
  const caller = { accountId: feed.accountId, keyId: feed.keyId, agency: membership ?? null };
  try {
    const started = await startImport({
      ctx: apiContext(ctx.database, caller, { now: ctx.clock() }),
      input: {
        text: fetched.text,
        mode: feed.mode,
        ...(feed.maxWithdrawals === null ? {} : { max_withdrawals: feed.maxWithdrawals }),
        feedId: feed.id,
      },
    });
    return record(ctx, feed, {
      kind: "changed",
      status: fetched.status,
      importId: started.id,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
    });
  } catch (error) {
    if (error instanceof AppError && importRefusals.has(error.code))
      return record(ctx, feed, { kind: "failed", status: fetched.status, errorCode: error.code });
    throw error;
  }
}

type Recorded =
  | { kind: "changed"; status: number; importId: string; etag: string | null; lastModified: string | null }
  | Exclude<Fetched, { kind: "changed" }>;

async function record(ctx: ServiceContext<StaffActor>, feed: Pick<ListingFeed, "id">, pull: Recorded): Promise<PullResult> {
  const at = ctx.clock();
  const failed = pull.kind === "failed";
  const saved = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .update(listingFeeds)
      .set({
        pullClaimedAt: null,
        lastPullAt: at,
        lastPullOutcome: pull.kind,
        lastPullHttpStatus: pull.status,
        lastPullErrorCode: failed ? pull.errorCode : null,
        lastPullImportId: pull.kind === "changed" ? pull.importId : null,
        ...(pull.kind === "changed" ? { etag: pull.etag, lastModified: pull.lastModified } : {}),
        // A streak starts at its first failed pull and ends at the first that does not fail.
        failingSince: failed ? sql`coalesce(${listingFeeds.failingSince}, ${at.toISOString()}::timestamptz)` : null,
        ...(failed ? {} : { failureReportedAt: null }),
      })
      .where(eq(listingFeeds.id, feed.id))
      .returning({ id: listingFeeds.id, failingSince: listingFeeds.failingSince });
    return row;
  });
  if (!saved) return { outcome: "gone" };
  const importId = pull.kind === "changed" ? { importId: pull.importId } : {};
  if (!failed) return { outcome: pull.kind, ...importId };
  return { outcome: "failed", mailed: await reportFailingFeed(ctx, saved) };
}
