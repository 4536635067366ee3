import { eq } from "drizzle-orm";
import { listingFeeds } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { ownFeed } from "./internal/queries";

/**
 * Deletes one of the account's feeds (another account's: 404). Its imports stay, with their
 * `feed_id`; an import of it still running runs to its end; a pull in flight finds the feed gone and
 * imports nothing.
 */
export async function deleteFeed({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const found = await ownFeed(tx, input.id, { lock: true });
    await tx.db.delete(listingFeeds).where(eq(listingFeeds.id, found.id));
  });
}
