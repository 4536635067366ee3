import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import {
  listingImportLines,
  listingImports,
  type ImportFailure,
  type ImportMode,
  type ImportRefusal,
  type ListingImportStatus,
} from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { importTotals, type ImportTotals } from "./totals";

/** Query of `GET /listings/imports/{id}`: the results are paged like `GET /events`. */
export const importResultsQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .meta({ description: "`meta.next` of the previous page: the `line` of its last result. Without it, from line 1." }),
  limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: "Results per page: 1–500, default 100." }),
});

export type ImportLineRow = typeof listingImportLines.$inferSelect;

export interface ImportView {
  id: string;
  status: ListingImportStatus;
  /** Why a `failed` import stopped; null otherwise. */
  errorCode: ImportFailure | null;
  mode: ImportMode;
  /** The feed whose pull made it (`POST /feeds`); null for one sent to `POST /listings/imports`. */
  feedId: string | null;
  /** Why a `refused` import wrote nothing; null otherwise. */
  refusal: ImportRefusal | null;
  createdAt: Date;
  completedAt: Date | null;
  lines: ImportTotals;
  results: ImportLineRow[];
  /** The `after` of the next page; null on the last. */
  next: string | null;
}

export const importIdParams = z.object({
  id: z
    .string()
    .regex(idPattern("listingImport"))
    .meta({ description: "The import's id (`imp_…`), as `POST /listings/imports` answered." }),
});

/**
 * One of the account's imports with its counts and a page of its line results, in line order.
 * Another account's import answers like a missing one.
 */
export async function getImport({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { id: string } & Partial<z.output<typeof importResultsQuery>>;
}): Promise<ImportView> {
  const [found] = await ctx.db
    .select()
    .from(listingImports)
    .where(and(eq(listingImports.id, input.id), eq(listingImports.accountId, ctx.actor.accountId)));
  if (!found) throw notFound();
  const limit = input.limit ?? 100;
  const after = input.after === undefined ? 0 : Number(input.after);
  const rows = await ctx.db
    .select()
    .from(listingImportLines)
    .where(and(eq(listingImportLines.importId, found.id), gt(listingImportLines.line, after)))
    .orderBy(asc(listingImportLines.line))
    .limit(limit + 1);
  const results = rows.slice(0, limit);
  return {
    id: found.id,
    status: found.status,
    errorCode: found.errorCode,
    mode: found.mode,
    feedId: found.feedId,
    refusal: found.refusal,
    createdAt: found.createdAt,
    completedAt: found.completedAt,
    lines: await importTotals(ctx.db, { importId: found.id, total: found.total }),
    results,
    next: rows.length > limit ? String(results.at(-1)!.line) : null,
  };
}
