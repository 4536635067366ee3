import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { listingFeeds } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { cursorTimestamp, decodeKeyset, olderThan, toKeysetPage, type KeysetPage } from "@/lib/base/cursor";
import { idPattern } from "@/lib/base/ids";
import { renderFeed, type FeedView } from "./fields";
import { feedsWithPendingImport } from "./internal/queries";

/** Query of `GET /feeds`: newest first, `per_page` a page, `cursor` from the previous page's `meta.next_cursor`. */
export const feedListQuery = z.object({
  cursor: z.string().optional().meta({ description: "`meta.next_cursor` of the previous page; without it, the first page." }),
  per_page: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Feeds per page: 1–100, default 20." }),
});

/** The account's feeds, newest first, a keyset page at a time (`lib/base/cursor.ts`). */
export async function listFeeds({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: Partial<z.output<typeof feedListQuery>>;
}): Promise<KeysetPage<FeedView>> {
  const limit = input.per_page ?? 20;
  const position = decodeKeyset(input.cursor, z.string().regex(idPattern("feed")));
  const rows = await ctx.db
    .select({ feed: listingFeeds, cursorAt: cursorTimestamp(listingFeeds.createdAt) })
    .from(listingFeeds)
    .where(
      and(
        eq(listingFeeds.accountId, ctx.actor.accountId),
        position ? olderThan(listingFeeds.createdAt, listingFeeds.id, position) : undefined,
      ),
    )
    .orderBy(desc(listingFeeds.createdAt), desc(listingFeeds.id))
    .limit(limit + 1);
  const pending = await feedsWithPendingImport(
    ctx.db,
    rows.map((row) => row.feed.id),
  );
  return toKeysetPage(
    rows,
    limit,
    (row) => row.feed.id,
    (row) => renderFeed(row.feed, pending.has(row.feed.id)),
  );
}
