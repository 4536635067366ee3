import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { importModes, listingImports } from "@/db/schema";
import { withTransaction, type ApiActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { dispatchJobs } from "@/lib/infra/jobs/dispatch";
import { enqueue, type EnqueuedJob } from "@/lib/infra/jobs/enqueue";
import { importJobs } from "./jobs";
import { importLines } from "./lines";
import { readUploadedImport } from "./source";

export type ImportSource = { text: string } | { key: string };

/** The feed (`POST /feeds`) whose pull sends the import: shown as the import's `feed_id`. */
export type ImportOrigin = { feedId?: string };

/** Query of `POST /listings/imports`: how the file applies. */
export const importModeQuery = z.object({
  mode: z.enum(importModes).default("upsert").meta({
    description:
      '`upsert` (default): the lines are applied. `full`: the file is the account\'s whole inventory: after its lines, every `active` listing of the account whose `external_ref` the file lacks is withdrawn (paused, with `listing.paused`) and reported as a result `{"line": null, "outcome": "withdrawn"}`; a listing an earlier full import withdrew is resumed when its ref is back in the file (one paused by hand stays paused).',
  }),
  max_withdrawals: z.coerce.number().int().min(0).optional().meta({
    description:
      "Only with `mode=full`: the most listings it may withdraw. Default: half the account's active listings that have an `external_ref`, rounded down. Beyond it the import ends `refused` (`error.code` `too_many_withdrawals`) before writing anything.",
  }),
});

export type ImportMode = z.output<typeof importModeQuery>;

/**
 * `POST /listings/imports`: checks the lines' count (the lines themselves are checked one by one by
 * the job, as single calls would be), records the import and queues its job in one transaction. One
 * import per account is queued or running at a time: another is refused with 409
 * `import_in_progress`, naming the one in progress.
 */
export async function startImport({
  ctx,
  input,
}: {
  ctx: ServiceContext<ApiActor>;
  input: ImportSource & Partial<ImportMode> & ImportOrigin;
}): Promise<{ id: string; status: "queued" }> {
  const accountId = ctx.actor.accountId;
  const text = "text" in input ? input.text : await readUploadedImport(ctx, { key: input.key, accountId });
  const total = importLines(text).length;
  let job: EnqueuedJob | undefined;
  const id = await withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(listingImports)
      .values({
        id: newId("listingImport"),
        accountId,
        keyId: ctx.actor.keyId,
        status: "queued",
        body: "text" in input ? input.text : null,
        uploadKey: "key" in input ? input.key : null,
        total,
        mode: input.mode ?? "upsert",
        maxWithdrawals: input.max_withdrawals ?? null,
        feedId: input.feedId ?? null,
        createdAt: ctx.now,
      })
      .onConflictDoNothing()
      .returning({ id: listingImports.id });
    if (!row) throw new AppError("import_in_progress", { id: await pendingImport(tx, accountId) });
    job = await enqueue(importJobs.processImport, { importId: row.id }, { tx: tx.db, accountId });
    return row.id;
  });
  if (job?.created) await dispatchJobs([{ id: job.id, name: job.name, accountId: job.accountId, runAt: job.runAt }]);
  return { id, status: "queued" };
}

async function pendingImport(ctx: ServiceContext, accountId: string): Promise<string> {
  const [row] = await ctx.db
    .select({ id: listingImports.id })
    .from(listingImports)
    .where(and(eq(listingImports.accountId, accountId), inArray(listingImports.status, ["queued", "running"])));
  return row?.id ?? "";
}
