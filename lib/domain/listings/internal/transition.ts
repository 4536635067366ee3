import type { Tx } from "@/db";
import type { ServiceContext } from "@/lib/platform/context";
import { listingEventData, recordEvent, type EventType } from "@/lib/domain/events";
import type { ListedRow } from "./queries";
import { rewritten, updateListing, type ListingChanges } from "./store";

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
