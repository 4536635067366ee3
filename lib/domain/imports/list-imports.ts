import { and, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { listingImportLines, listingImportOutcomes, listingImports } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { cursorTimestamp, decodeKeyset, olderThan, toKeysetPage, type KeysetPage } from "@/lib/base/cursor";
import { idPattern } from "@/lib/base/ids";
import type { ImportView } from "./get-import";
import { emptyTotals } from "./totals";

/** An import without its line results: what a list of imports shows of each. */
export type ImportSummary = Omit<ImportView, "results" | "next">;

/** Query of `GET /listings/imports`: newest first, like `GET /feeds`; `feed_id` keeps one feed's imports. */
export const importListQuery = z.object({
  cursor: z.string().optional().meta({ description: "`meta.next_cursor` of the previous page; without it, the first page." }),
  per_page: z.coerce.number().int().min(1).max(100).default(20).meta({ description: "Imports per page: 1–100, default 20." }),
  feed_id: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "Only the imports of this feed (`POST /feeds`). A feed that is not the account's lists nothing." }),
});

/**
 * The account's imports, newest first, a keyset page at a time (`lib/base/cursor.ts`), each with its
 * counts: `GET /listings/imports` and the portal's My listings.
 */
export async function listImports({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: Partial<z.output<typeof importListQuery>>;
}): Promise<KeysetPage<ImportSummary>> {
  const limit = input.per_page ?? 20;
  const position = decodeKeyset(input.cursor, z.string().regex(idPattern("listingImport")));
  const rows = await ctx.db
    .select({ row: listingImports, cursorAt: cursorTimestamp(listingImports.createdAt) })
    .from(listingImports)
    .where(
      and(
        // The account's own: another account's feed id matches none of them, and so answers an empty list.
        eq(listingImports.accountId, ctx.actor.accountId),
        input.feed_id === undefined ? undefined : eq(listingImports.feedId, input.feed_id),
        position ? olderThan(listingImports.createdAt, listingImports.id, position) : undefined,
      ),
    )
    .orderBy(desc(listingImports.createdAt), desc(listingImports.id))
    .limit(limit + 1);
  const shown = rows.slice(0, limit).map(({ row }) => row.id);
  const counted = shown.length
    ? await ctx.db
        .select({ importId: listingImportLines.importId, outcome: listingImportLines.outcome, n: count() })
        .from(listingImportLines)
        .where(inArray(listingImportLines.importId, shown))
        .groupBy(listingImportLines.importId, listingImportLines.outcome)
    : [];
  return toKeysetPage(
    rows,
    limit,
    ({ row }) => row.id,
    ({ row }) => {
      const lines = emptyTotals(row.total);
      for (const outcome of listingImportOutcomes) {
        lines[outcome] = counted.find((c) => c.importId === row.id && c.outcome === outcome)?.n ?? 0;
        if (outcome !== "withdrawn") lines.done += lines[outcome];
      }
      return {
        id: row.id,
        status: row.status,
        errorCode: row.errorCode,
        mode: row.mode,
        feedId: row.feedId,
        refusal: row.refusal,
        createdAt: row.createdAt,
        completedAt: row.completedAt,
        lines,
      };
    },
  );
}
