import type { TransactionContext } from "@/lib/base/context";
import { listingEventData, recordEvent, type EventType } from "@/lib/domain/events";
import type { ListedRow } from "../read-shape";
import { rewritten, updateListing, type ListingChanges } from "@/lib/domain/listings/store";

/** Writes a state change and its event in `ctx`'s transaction (the outbox rule). */
export async function transition(
  ctx: TransactionContext,
  listed: ListedRow,
  changes: ListingChanges,
  event: EventType,
  extra: Record<string, unknown> = {},
): Promise<ListedRow> {
  const updated = await updateListing(ctx, listed.row, changes);
  await recordEvent(ctx.db, { accountId: updated.accountId, type: event, data: listingEventData(updated, extra), now: ctx.now });
  return rewritten(listed, updated);
}
