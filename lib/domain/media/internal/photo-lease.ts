import { and, eq, isNull, lte, or } from "drizzle-orm";
import { photoLists } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";

/** How long a worker holds a listing without showing signs of life; renewed after every round of photos. */
const leaseMs = 5 * 60_000;

const leaseEnd = (now: Date) => new Date(now.getTime() + leaseMs);

/** `held`, or what a run that finds the listing held answers: until when, or that the list is gone. */
export type LeaseClaim = "held" | { status: "busy"; until: Date } | { status: "gone" };

/**
 * Takes the listing unless a live lease holds it: one worker per listing at a time, on either job
 * engine, holding the listing's `photo_lists` row until `worker_until` by the context's clock. A
 * worker that dies leaves its lease to end; the next run takes the listing up then.
 */
export async function claimPhotoLease(ctx: ServiceContext<StaffActor>, listingId: string): Promise<LeaseClaim> {
  const now = ctx.clock();
  const [held] = await ctx.db
    .update(photoLists)
    .set({ workerUntil: leaseEnd(now) })
    .where(and(eq(photoLists.listingId, listingId), or(isNull(photoLists.workerUntil), lte(photoLists.workerUntil, now))))
    .returning({ listingId: photoLists.listingId });
  if (held) return "held";
  const [list] = await ctx.db.select({ until: photoLists.workerUntil }).from(photoLists).where(eq(photoLists.listingId, listingId));
  return list?.until ? { status: "busy", until: list.until } : { status: "gone" };
}

/** The worker is still at it: the lease runs a full term from now. */
export async function renewPhotoLease(ctx: ServiceContext<StaffActor>, listingId: string): Promise<void> {
  await ctx.db
    .update(photoLists)
    .set({ workerUntil: leaseEnd(ctx.clock()) })
    .where(eq(photoLists.listingId, listingId));
}

/** Gives the listing up, in `ctx`'s transaction when it has one (the list's publishing). */
export async function releasePhotoLease(ctx: ServiceContext<StaffActor>, listingId: string): Promise<void> {
  await ctx.db.update(photoLists).set({ workerUntil: null }).where(eq(photoLists.listingId, listingId));
}
