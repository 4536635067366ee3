import { and, eq, inArray } from "drizzle-orm";
import { listingImports, pendingImportStatuses, type ImportFailure, type ImportRefusal, type ListingImport } from "@/db/schema";
import { withTransaction, type ServiceContext } from "@/lib/base/context";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { importTotals } from "../totals";

export type ImportEnding =
  | { status: "completed" | "cancelled"; errorCode: null }
  | { status: "failed"; errorCode: ImportFailure }
  | { status: "refused"; errorCode: null; refusal: ImportRefusal };

/**
 * Ends a queued or running import: its status, reason and time, and `import.completed` with the
 * totals of the lines applied, in one transaction. The update is conditional on the import still
 * pending, so an import ends once: false when it had ended already (the event is not written again).
 * A feed's import loses its body as it ends.
 */
export async function endImport(ctx: ServiceContext, found: ListingImport, ending: ImportEnding): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    const [ended] = await tx.db
      .update(listingImports)
      .set({
        status: ending.status,
        errorCode: ending.errorCode,
        refusal: "refusal" in ending ? ending.refusal : null,
        completedAt: tx.clock(),
        // A feed's file stays at its URL: its copy goes once the import has ended, never before, so a
        // run that dies mid-way is resumed from it. (A feed pulled every 15 min would otherwise keep
        // some 100 files a day for 30 days.) An import sent to the API keeps its body (retention rules).
        ...(found.feedId ? { body: null } : {}),
      })
      .where(and(eq(listingImports.id, found.id), inArray(listingImports.status, pendingImportStatuses)))
      .returning({ id: listingImports.id });
    if (!ended) return false;
    const lines = await importTotals(tx.db, { importId: found.id, total: found.total });
    await recordEvent(tx.db, {
      accountId: found.accountId,
      type: eventTypes.importCompleted,
      data: {
        id: found.id,
        status: ending.status,
        ...(found.feedId ? { feed_id: found.feedId } : {}),
        ...(ending.errorCode ? { error_code: ending.errorCode } : {}),
        ...("refusal" in ending ? { error: ending.refusal } : {}),
        lines,
      },
      now: tx.clock(),
    });
    return true;
  });
}
