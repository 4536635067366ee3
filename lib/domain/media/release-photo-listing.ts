import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { releasePhotoLease } from "./internal/photo-lease";

/**
 * Gives up a listing this worker is processing before it is done (the process shuts down past its
 * grace): the next run, on any instance, takes it up at once instead of waiting for the lease to end.
 * The photos left `processing` are taken up by that run, as after a worker that died.
 */
export async function releasePhotoListing({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { listingId: string };
}): Promise<void> {
  await releasePhotoLease(ctx, input.listingId);
}
