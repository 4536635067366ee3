import { count, desc, eq, inArray } from "drizzle-orm";
import {
  listingImportLines,
  listingImports,
  listingImportOutcomes,
  type ImportFailure,
  type ImportRefusal,
  type ListingImportStatus,
} from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { emptyTotals, type ImportTotals } from "./totals";

export interface ImportSummary {
  id: string;
  status: ListingImportStatus;
  /** The feed whose pull made it; null for one sent to `POST /listings/imports`. */
  feedId: string | null;
  /** Why a `failed` import stopped; null otherwise. */
  errorCode: ImportFailure | null;
  /** Why a `refused` import wrote nothing; null otherwise. */
  refusal: ImportRefusal | null;
  createdAt: Date;
  completedAt: Date | null;
  lines: ImportTotals;
}

/** The account's latest imports, newest first, each with its counts (the portal's My listings). */
export async function listImports({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { limit: number };
}): Promise<ImportSummary[]> {
  const rows = await ctx.db
    .select()
    .from(listingImports)
    .where(eq(listingImports.accountId, ctx.actor.accountId))
    .orderBy(desc(listingImports.createdAt), desc(listingImports.id))
    .limit(input.limit);
  if (rows.length === 0) return [];
  const counted = await ctx.db
    .select({ importId: listingImportLines.importId, outcome: listingImportLines.outcome, n: count() })
    .from(listingImportLines)
    .where(
      inArray(
        listingImportLines.importId,
        rows.map((row) => row.id),
      ),
    )
    .groupBy(listingImportLines.importId, listingImportLines.outcome);
  return rows.map((row) => {
    const lines = emptyTotals(row.total);
    for (const outcome of listingImportOutcomes) {
      lines[outcome] = counted.find((c) => c.importId === row.id && c.outcome === outcome)?.n ?? 0;
      if (outcome !== "withdrawn") lines.done += lines[outcome];
    }
    return {
      id: row.id,
      status: row.status,
      feedId: row.feedId,
      errorCode: row.errorCode,
      refusal: row.refusal,
      createdAt: row.createdAt,
      completedAt: row.completedAt,
      lines,
    };
  });
}
