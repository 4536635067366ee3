import { and, eq } from "drizzle-orm";
import { listingImports, pendingImportStatuses } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { getImport, type ImportView } from "./get-import";
import { endImport } from "./internal/end-import";

/**
 * `DELETE /listings/imports/{id}`: ends one of the account's queued or running imports `cancelled`,
 * with `import.completed`. The lines applied so far stay applied and counted; the job's batch in
 * flight, if any, commits before the cancellation (it holds a share lock on the import's row) and no
 * batch after it. Another account's or a missing import is 404; one that has ended, 409
 * `import_ended`. Answers the import as `GET /listings/imports/{id}` shows it.
 */
export async function cancelImport({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { id: string } }): Promise<ImportView> {
  const own = and(eq(listingImports.id, input.id), eq(listingImports.accountId, ctx.actor.accountId));
  const [found] = await ctx.db.select().from(listingImports).where(own);
  if (!found) throw notFound();
  const cancelled = pendingImportStatuses.includes(found.status) && (await endImport(ctx, found, { status: "cancelled", errorCode: null }));
  if (!cancelled) {
    const [ended] = await ctx.db.select({ status: listingImports.status }).from(listingImports).where(own);
    throw new AppError("import_ended", { id: found.id, status: ended.status });
  }
  return getImport({ ctx, input: { id: found.id } });
}
