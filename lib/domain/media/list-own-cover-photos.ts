import { visibleTo } from "@/lib/domain/listings/scope";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { coverPhotos, type PublicPhoto } from "./internal/cover-photos";

/**
 * The cover of each of these listings the account may manage (its agency's for an owner or admin),
 * in whatever state: My listings shows a draft's or a paused listing's photo too. Other listings
 * among `codes` have none, like listings without photos.
 */
export async function listOwnCoverPhotos({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { codes: string[] };
}): Promise<Map<string, PublicPhoto>> {
  return coverPhotos(ctx.db, visibleTo(ctx.actor), input.codes);
}
