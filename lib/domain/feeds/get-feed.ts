import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { renderFeed, type FeedView } from "./fields";
import { feedsWithPendingImport, ownFeed } from "./internal/queries";

/** One of the account's feeds; another account's answers 404. */
export async function getFeed({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<FeedView> {
  const found = await ownFeed(ctx, input.id);
  return renderFeed(found, (await feedsWithPendingImport(ctx.db, [found.id])).has(found.id));
}
