import { and, eq, inArray } from "drizzle-orm";
import type { Handle } from "@/db";
import { listingFeeds, listingImports, pendingImportStatuses, type ListingFeed } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";

/** The account's feed `id`; another account's answers like a missing one (404). */
export async function ownFeed(ctx: ServiceContext<AccountActor>, id: string, options: { lock?: boolean } = {}): Promise<ListingFeed> {
  const query = ctx.db
    .select()
    .from(listingFeeds)
    .where(and(eq(listingFeeds.id, id), eq(listingFeeds.accountId, ctx.actor.accountId)));
  const [found] = options.lock ? await query.for("update") : await query;
  if (!found) throw notFound();
  return found;
}

/** The feeds among `ids` whose pulls' import is still queued or running. */
export async function feedsWithPendingImport(db: Handle, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ feedId: listingImports.feedId })
    .from(listingImports)
    .where(and(inArray(listingImports.feedId, ids), inArray(listingImports.status, pendingImportStatuses)));
  return new Set(rows.map((row) => row.feedId!));
}
