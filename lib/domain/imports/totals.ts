import { count, eq } from "drizzle-orm";
import type { Handle } from "@/db";
import { listingImportLines, listingImportOutcomes, type ListingImportOutcome } from "@/db/schema";

export type ImportTotals = { total: number; done: number } & Record<ListingImportOutcome, number>;

/** How the import's lines ended so far, counted from their result rows. */
export async function importTotals(db: Handle, input: { importId: string; total: number }): Promise<ImportTotals> {
  const rows = await db
    .select({ outcome: listingImportLines.outcome, n: count() })
    .from(listingImportLines)
    .where(eq(listingImportLines.importId, input.importId))
    .groupBy(listingImportLines.outcome);
  const totals = emptyTotals(input.total);
  for (const outcome of listingImportOutcomes) {
    const n = rows.find((row) => row.outcome === outcome)?.n ?? 0;
    totals[outcome] = n;
    if (outcome !== "withdrawn") totals.done += n;
  }
  return totals;
}

/** The counts of an import none of whose lines is done yet. */
export function emptyTotals(total: number): ImportTotals {
  return {
    total,
    done: 0,
    ...(Object.fromEntries(listingImportOutcomes.map((outcome) => [outcome, 0])) as Record<ListingImportOutcome, number>),
  };
}
