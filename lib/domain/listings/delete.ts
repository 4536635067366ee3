import { and, eq } from "drizzle-orm";
import { listingReports } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { eventTypes, listingEventData, recordEvent } from "@/lib/domain/events";
import { lockListing } from "./locking";
import { updateListing } from "./store";

/** Deletes a listing (soft: it leaves every read and its external_ref is free again); refused while reports are open. */
export async function deleteListing({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { code: string } }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const { row } = await lockListing(tx, input.code);
    const open = await tx.db
      .select({ id: listingReports.id })
      .from(listingReports)
      .where(and(eq(listingReports.listingId, row.id), eq(listingReports.status, "open")))
      .limit(1);
    if (open.length) throw new AppError("listing_action_refused", { reason: "open_reports" });
    await updateListing(tx, row, { deletedAt: ctx.now });
    await recordEvent(tx.db, {
      accountId: row.accountId,
      type: eventTypes.withdrawn,
      data: listingEventData(row, { by: "owner", deleted: true }),
      now: ctx.now,
    });
  });
}
