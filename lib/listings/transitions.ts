import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { listingReports, type ListingStatus } from "@/db/schema";
import type { ServiceContext } from "@/lib/context";
import { AppError, notFound } from "@/lib/errors";
import { eventTypes, listingEventData, recordEvent, type EventType } from "@/lib/events";
import { lockListing } from "./locking";
import type { ListedRow } from "./queries";
import type { ListingOwner } from "./scope";
import { rewritten, updateListing, type ListingChanges } from "./store";

/**
 * Owner actions of the state machine (spec: States and transitions). Repeating an action on a
 * listing already in its target state changes nothing and answers like the first time; a state the
 * action does not start from is refused: `resume` with 404 as the spec says, the others with 409.
 */
const ownerActions = {
  pause: { from: ["active"], to: "paused", event: eventTypes.paused, refusal: "listing_action_refused" },
  resume: { from: ["paused"], to: "active", event: eventTypes.reactivated, refusal: "not_found" },
  sold: { from: ["active", "paused"], to: "sold", event: eventTypes.sold, refusal: "listing_action_refused" },
} as const satisfies Record<string, { from: readonly ListingStatus[]; to: ListingStatus; event: EventType; refusal: string }>;

export type OwnerAction = keyof typeof ownerActions;

export async function changeListingState({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { owner: ListingOwner; code: string; action: OwnerAction };
}): Promise<ListedRow> {
  const action = ownerActions[input.action];
  return ctx.database.db.transaction(async (tx) => {
    const listed = await lockListing(tx, input.code, input.owner);
    const { status } = listed.row;
    if (status === action.to && action.refusal !== "not_found") return listed;
    if (!(action.from as readonly string[]).includes(status)) {
      if (action.refusal === "not_found") throw notFound();
      throw new AppError("listing_action_refused", { reason: `A listing in state ${status} cannot be marked ${action.to}.` });
    }
    return transition(tx, ctx, listed, { status: action.to }, action.event);
  });
}

/** Deletes a listing (soft: it leaves every read and its external_ref is free again); refused while reports are open. */
export async function deleteListing({ ctx, input }: { ctx: ServiceContext; input: { owner: ListingOwner; code: string } }): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const { row } = await lockListing(tx, input.code, input.owner);
    const open = await tx
      .select({ id: listingReports.id })
      .from(listingReports)
      .where(and(eq(listingReports.listingId, row.id), eq(listingReports.status, "open")))
      .limit(1);
    if (open.length)
      throw new AppError("listing_action_refused", {
        reason: "The listing has open reports; it can be deleted once moderation has closed them.",
      });
    await updateListing(tx, row, { deletedAt: ctx.now }, ctx.now);
    await recordEvent(tx, {
      accountId: row.accountId,
      type: eventTypes.withdrawn,
      data: listingEventData(row, { by: "owner", deleted: true }),
      now: ctx.now,
    });
  });
}

/** Writes a state change and its event in the caller's transaction (the outbox rule). */
export async function transition(
  tx: Tx,
  ctx: ServiceContext,
  listed: ListedRow,
  changes: ListingChanges,
  event: EventType,
  extra: Record<string, unknown> = {},
): Promise<ListedRow> {
  const updated = await updateListing(tx, listed.row, changes, ctx.now);
  await recordEvent(tx, { accountId: updated.accountId, type: event, data: listingEventData(updated, extra), now: ctx.now });
  return rewritten(listed, updated);
}
