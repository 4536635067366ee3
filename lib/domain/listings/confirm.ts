import { eq } from "drizzle-orm";
import { listings } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { eventTypes } from "@/lib/domain/events";
import { lockListing } from "./locking";
import type { ListedRow } from "./read-shape";
import { transition } from "./internal/transition";

/**
 * "Still available" (`unconfirmed` → `active`): an unconfirmed listing is active
 * again with `listing.published`, and a new 30 days start. An active listing confirmed early (after
 * the reminder) only starts its 30 days again: nothing a reader sees changes, so neither its version
 * (an integrator's `If-Match` stays valid) nor its place in the "last modified" order does, and no
 * event is written. Any other state is refused; someone else's listing answers like a missing one.
 */
export async function confirmListing({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { code: string } }): Promise<ListedRow> {
  return withTransaction(ctx, async (tx) => {
    const listed = await lockListing(tx, input.code);
    const { status } = listed.row;
    if (status === "unconfirmed") return transition(tx, listed, { status: "active", confirmedAt: ctx.now }, eventTypes.published);
    if (status !== "active") throw new AppError("listing_action_refused", { reason: "cannot_confirm", status });
    const [row] = await tx.db.update(listings).set({ confirmedAt: ctx.now }).where(eq(listings.id, listed.row.id)).returning();
    return { ...listed, row };
  });
}
