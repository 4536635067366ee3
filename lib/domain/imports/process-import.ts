import { and, eq } from "drizzle-orm";
import { agencyMembers, listingImportLines, listingImports } from "@/db/schema";
import { apiContext, withTransaction, type AccountActor, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { applyLine, LineNeedsSavepoint, readLine, type LineResult, type ReadLine } from "./apply-line";
import { importLines } from "./lines";
import { readUploadedImport } from "./source";
import { importTotals } from "./totals";

/** Lines applied in one transaction, each under its own savepoint: fewer commits, the same writes. */
const linesPerTransaction = 100;

/**
 * Transactions applying lines at once, each on its connection: the lines of one `external_ref` all
 * go to the same lane, in file order, so the lanes never touch the same listing (nor wait on each
 * other's row locks). On PGlite, one session, they take turns.
 */
const lanes = 4;

export type ProcessImportOutcome = { status: "completed" | "gone" | "continue" };

/**
 * The import job: applies the lines without a result yet, as the import's key would with
 * `PUT /listings/ref/{ref}`, in lanes (the lines of one ref in file order), each line's result row
 * written in the transaction that applies it (a process killed mid-import leaves whole lines, and
 * the next run starts after them; the result's primary key refuses a line applied twice). After
 * `budgetMs` it stops between transactions and says `continue`, so one run stays well within its
 * job lease. The last run marks the import completed and writes `import.completed` in the same
 * transaction, once.
 */
export async function processImport({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { importId: string; budgetMs: number };
}): Promise<ProcessImportOutcome> {
  const [found] = await ctx.db.select().from(listingImports).where(eq(listingImports.id, input.importId));
  if (!found || found.status === "completed") return { status: "gone" };
  if (found.status === "queued") {
    await ctx.db
      .update(listingImports)
      .set({ status: "running", startedAt: ctx.clock() })
      .where(and(eq(listingImports.id, found.id), eq(listingImports.status, "queued")));
  }
  const text = found.body ?? (await readUploadedImport(ctx, { key: found.uploadKey!, accountId: found.accountId }));
  const lines = importLines(text);
  const applied = await ctx.db
    .select({ line: listingImportLines.line })
    .from(listingImportLines)
    .where(eq(listingImportLines.importId, found.id));
  const done = new Set(applied.map((row) => row.line));
  const pending = lines.flatMap((text, index) => (done.has(index + 1) ? [] : [readLine(index + 1, text)]));

  const [membership] = await ctx.db
    .select({ id: agencyMembers.agencyId, role: agencyMembers.role })
    .from(agencyMembers)
    .where(eq(agencyMembers.accountId, found.accountId));
  const caller = { accountId: found.accountId, keyId: found.keyId, agency: membership ?? null };
  const started = ctx.clock().getTime();
  const overBudget = () => ctx.clock().getTime() - started > input.budgetMs;
  const runLane = async (queue: ReadLine[]): Promise<boolean> => {
    for (let start = 0; start < queue.length; start += linesPerTransaction) {
      if (overBudget()) return false;
      await applyBatch(apiContext(ctx.database, caller, { now: ctx.clock() }), found.id, queue.slice(start, start + linesPerTransaction));
    }
    return true;
  };
  // Every lane ends before the run does (a failed one's error is the run's): a retry never meets
  // lanes of this run still writing.
  const settled = await Promise.allSettled(laneQueues(pending).map(runLane));
  for (const lane of settled) if (lane.status === "rejected") throw lane.reason;
  if (settled.some((lane) => lane.status === "fulfilled" && !lane.value)) return { status: "continue" };
  await completeImport(ctx, found);
  return { status: "completed" };
}

/**
 * One transaction of lines and their result rows: first without savepoints; when a line fails, the
 * whole transaction is rolled back and the batch applied again with a savepoint per line.
 */
async function applyBatch(ctx: ServiceContext<AccountActor>, importId: string, batch: ReadLine[]): Promise<void> {
  // The driver may reject the transaction with the failed statement's error rather than the one
  // thrown: whether a line failed is kept here.
  let lineFailed = false;
  const apply = (savepoints: boolean) =>
    withTransaction(ctx, async (tx) => {
      const results: LineResult[] = [];
      for (const read of batch) {
        try {
          results.push(await applyLine(tx, read, { savepoints }));
        } catch (error) {
          lineFailed ||= error instanceof LineNeedsSavepoint;
          throw error;
        }
      }
      await tx.db.insert(listingImportLines).values(results.map((result) => ({ importId, ...result })));
    });
  await apply(false).catch((error: unknown) => {
    if (lineFailed) return apply(true);
    throw error;
  });
}

/** The lines split into lanes by `external_ref` (a line without one by its number), each in file order. */
function laneQueues(pending: ReadLine[]): ReadLine[][] {
  const queues: ReadLine[][] = Array.from({ length: lanes }, () => []);
  for (const read of pending) {
    const key = "ref" in read ? read.ref : String(read.line);
    let hash = 0;
    for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
    queues[Math.abs(hash) % lanes].push(read);
  }
  return queues;
}

async function completeImport(ctx: ServiceContext<StaffActor>, found: typeof listingImports.$inferSelect): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [completed] = await tx.db
      .update(listingImports)
      .set({ status: "completed", completedAt: ctx.clock() })
      .where(and(eq(listingImports.id, found.id), eq(listingImports.status, "running")))
      .returning({ id: listingImports.id });
    if (!completed) return;
    const lines = await importTotals(tx.db, { importId: found.id, total: found.total });
    await recordEvent(tx.db, {
      accountId: found.accountId,
      type: eventTypes.importCompleted,
      data: { id: found.id, status: "completed", lines },
      now: ctx.clock(),
    });
  });
}
