import { and, eq, max } from "drizzle-orm";
import {
  accounts,
  agencyMembers,
  apiKeys,
  listingImportLines,
  listingImports,
  pendingImportStatuses,
  type ImportFailure,
  type ImportRefusal,
  type ListingImport,
} from "@/db/schema";
import {
  apiContext,
  withTransaction,
  type AccountActor,
  type ServiceContext,
  type StaffActor,
  type TransactionContext,
} from "@/lib/base/context";
import { activeListingsWithRef, withdrawByFeed, type SyncedListing } from "@/lib/domain/listings/feed-sync";
import { retryWhileBusy } from "@/lib/domain/listings/locking";
import { applyLine, LineNeedsSavepoint, readLine, type LineResult, type ReadLine } from "./apply-line";
import { endImport } from "./internal/end-import";
import { importLines } from "./lines";
import { readUploadedImport } from "./source";

/** Lines applied in one transaction, each under its own savepoint: fewer commits, the same writes. */
const linesPerTransaction = 100;

/**
 * Transactions applying lines at once, each on its connection: the lines of one `external_ref` all
 * go to the same lane, in file order, so the lanes never touch the same listing (nor wait on each
 * other's row locks). On PGlite, one session, they take turns.
 */
const lanes = 4;

/** Listings withdrawn in one transaction, with their result rows. */
const withdrawalsPerTransaction = 100;

/** A withdrawal whose listing another write holds waits for it, as a job does. */
const withdrawalBusyRetry = { rounds: 3, backoffMs: (round: number) => [50, 200, 500][round] };

export type ProcessImportOutcome = { status: "completed" | "failed" | "refused" | "gone" | "continue" | "lost" };

/**
 * The import job: applies the lines without a result yet, as the import's key would with
 * `PUT /listings/ref/{ref}`, in lanes (the lines of one ref in file order), each line's result row
 * written in the transaction that applies it (a process killed mid-import leaves whole lines, and
 * the next run starts after them; the result's primary key refuses a line applied twice). Before
 * each transaction it renews its job's lease (`renewLease`) and stops, saying `lost`, once another
 * run holds the job. After `budgetMs` it stops between transactions and says `continue`. Each
 * transaction first checks that the import still runs and its key still may write: a cancelled
 * import stops there, one whose key was revoked or expired (or whose account was closed) ends
 * `failed` with that reason. The last run marks the import completed; every ending writes
 * `import.completed` in its transaction, once.
 *
 * A `full` import first counts the account's active listings whose ref its file lacks: more than its
 * cap, it ends `refused` before any line is applied. After its lines it withdraws them (`withdrawAbsent`).
 */
export async function processImport({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { importId: string; budgetMs: number; renewLease: () => Promise<boolean> };
}): Promise<ProcessImportOutcome> {
  const [found] = await ctx.db.select().from(listingImports).where(eq(listingImports.id, input.importId));
  if (!found || !pendingImportStatuses.includes(found.status)) return { status: "gone" };
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
  const full = found.mode === "full";
  // A full import needs every ref of the file, the lines applied before included.
  const reads = full ? lines.map((text, index) => readLine(index + 1, text)) : [];
  const pending = full
    ? reads.filter((read) => !done.has(read.line))
    : lines.flatMap((text, index) => (done.has(index + 1) ? [] : [readLine(index + 1, text)]));
  const refs = new Set(reads.flatMap((read) => ("ref" in read ? [read.ref] : [])));
  const absentFrom = (active: SyncedListing[]) => active.filter((listing) => !refs.has(listing.externalRef));
  if (full && done.size === 0) {
    const active = await activeListingsWithRef(ctx, found.accountId);
    const refusal = overCap(found, { active: active.length, absent: absentFrom(active).length });
    if (refusal) {
      await endImport(ctx, found, { status: "refused", errorCode: null, refusal });
      return { status: "refused" };
    }
  }

  const [membership] = await ctx.db
    .select({ id: agencyMembers.agencyId, role: agencyMembers.role })
    .from(agencyMembers)
    .where(eq(agencyMembers.accountId, found.accountId));
  const caller = { accountId: found.accountId, keyId: found.keyId, agency: membership ?? null };
  const started = ctx.clock().getTime();
  const overBudget = () => ctx.clock().getTime() - started > input.budgetMs;
  let stop: ImportStopped | undefined;
  const runLane = async (queue: ReadLine[]): Promise<"done" | "over budget" | "stopped"> => {
    for (let start = 0; start < queue.length; start += linesPerTransaction) {
      if (stop) return "stopped";
      if (overBudget()) return "over budget";
      if (!(await input.renewLease())) {
        stop ??= new ImportStopped("lost");
        return "stopped";
      }
      try {
        const batch = queue.slice(start, start + linesPerTransaction);
        await applyBatch(apiContext(ctx.database, caller, { now: ctx.clock() }), found, batch, { full });
      } catch (error) {
        if (!(error instanceof ImportStopped)) throw error;
        stop ??= error;
        return "stopped";
      }
    }
    return "done";
  };
  // Every lane ends before the run does (a failed one's error is the run's): a retry never meets
  // lanes of this run still writing.
  const settled = await Promise.allSettled(laneQueues(pending).map(runLane));
  for (const lane of settled) if (lane.status === "rejected") throw lane.reason;
  if (stop?.reason === "lost") return { status: "lost" };
  if (stop?.reason === "ended") return { status: "gone" };
  if (stop) {
    await endImport(ctx, found, { status: "failed", errorCode: stop.reason });
    return { status: "failed" };
  }
  if (settled.some((lane) => lane.status === "fulfilled" && lane.value === "over budget")) return { status: "continue" };
  if (full) {
    const withdrawing = await withdrawAbsent(ctx, found, absentFrom(await activeListingsWithRef(ctx, found.accountId)), {
      caller,
      overBudget,
      renewLease: input.renewLease,
    });
    if (withdrawing === "over budget") return { status: "continue" };
    if (withdrawing === "lost" || withdrawing === "ended") return { status: withdrawing === "lost" ? "lost" : "gone" };
    if (withdrawing !== "done") {
      await endImport(ctx, found, { status: "failed", errorCode: withdrawing });
      return { status: "failed" };
    }
  }
  await endImport(ctx, found, { status: "completed", errorCode: null });
  return { status: "completed" };
}

/**
 * Why a run stops applying lines: its job is another run's (`lost`), the import ended meanwhile
 * (cancelled: `ended`), or the key it writes as may write no more (the import's `error_code`).
 */
class ImportStopped extends Error {
  constructor(readonly reason: "lost" | "ended" | ImportFailure) {
    super(`import stopped: ${reason}`);
  }
}

/**
 * The first statement of each batch: the import still running (a share lock on its row, so a
 * cancellation waits for the batches in flight and no batch commits after it) and its key still
 * usable, as authentication would find it for a single call.
 */
async function checkImportGoesOn(tx: TransactionContext<AccountActor>, found: ListingImport): Promise<void> {
  const [row] = await tx.db
    .select({ status: listingImports.status, revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt, active: accounts.active })
    .from(listingImports)
    .leftJoin(apiKeys, eq(apiKeys.id, listingImports.keyId))
    .innerJoin(accounts, eq(accounts.id, listingImports.accountId))
    .where(eq(listingImports.id, found.id))
    .for("share", { of: listingImports });
  if (!row || row.status !== "running") throw new ImportStopped("ended");
  if (!row.active) throw new ImportStopped("account_inactive");
  if (!row.expiresAt || row.revokedAt) throw new ImportStopped("key_revoked");
  if (row.expiresAt <= tx.now) throw new ImportStopped("key_expired");
}

/**
 * One transaction of lines and their result rows: first without savepoints; when a line fails, the
 * whole transaction is rolled back and the batch applied again with a savepoint per line.
 */
async function applyBatch(
  ctx: ServiceContext<AccountActor>,
  found: ListingImport,
  batch: ReadLine[],
  options: { full: boolean },
): Promise<void> {
  // The driver may reject the transaction with the failed statement's error rather than the one
  // thrown: whether a line failed is kept here.
  let lineFailed = false;
  const apply = (savepoints: boolean) =>
    withTransaction(ctx, async (tx) => {
      await checkImportGoesOn(tx, found);
      const results: LineResult[] = [];
      for (const read of batch) {
        try {
          results.push(await applyLine(tx, read, { savepoints, full: options.full }));
        } catch (error) {
          lineFailed ||= error instanceof LineNeedsSavepoint;
          throw error;
        }
      }
      await tx.db.insert(listingImportLines).values(results.map((result) => ({ importId: found.id, ...result })));
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

/**
 * The refusal of a full import that would withdraw more listings than its cap: `max_withdrawals` as
 * sent, else half the account's active listings that have a ref (rounded down). Null within it.
 */
function overCap(found: ListingImport, count: { active: number; absent: number }): ImportRefusal | null {
  const limit = found.maxWithdrawals ?? Math.floor(count.active / 2);
  return count.absent > limit ? { code: "too_many_withdrawals", withdrawals: count.absent, limit } : null;
}

/**
 * After a full import's lines: pauses each active listing whose ref the file lacks, each with its
 * result row (`withdrawn`, numbered after the last line) in the transaction that pauses it, so a run
 * killed meanwhile leaves whole withdrawals and the next one finds the rest still active: none is
 * applied twice, none lost. Batches check the import and its key as the lines' do.
 */
async function withdrawAbsent(
  ctx: ServiceContext<StaffActor>,
  found: ListingImport,
  absent: SyncedListing[],
  run: { caller: Parameters<typeof apiContext>[1]; overBudget: () => boolean; renewLease: () => Promise<boolean> },
): Promise<"done" | "over budget" | "lost" | "ended" | ImportFailure> {
  const [numbered] = await ctx.db
    .select({ last: max(listingImportLines.line) })
    .from(listingImportLines)
    .where(eq(listingImportLines.importId, found.id));
  let next = Math.max(found.total, numbered?.last ?? 0) + 1;
  for (let start = 0; start < absent.length; start += withdrawalsPerTransaction) {
    if (run.overBudget()) return "over budget";
    if (!(await run.renewLease())) return "lost";
    const batch = absent.slice(start, start + withdrawalsPerTransaction);
    try {
      next += await retryWhileBusy(
        apiContext(ctx.database, run.caller, { now: ctx.clock() }),
        async (tx) => {
          await checkImportGoesOn(tx, found);
          const rows: (LineResult & { importId: string })[] = [];
          for (const listing of batch) {
            if (!(await withdrawByFeed(tx, { code: listing.code, importId: found.id }))) continue;
            rows.push({
              importId: found.id,
              line: next + rows.length,
              externalRef: listing.externalRef,
              outcome: "withdrawn",
              listingCode: listing.code,
              errorCode: null,
              problem: null,
            });
          }
          if (rows.length > 0) await tx.db.insert(listingImportLines).values(rows);
          return rows.length;
        },
        withdrawalBusyRetry,
      );
    } catch (error) {
      if (!(error instanceof ImportStopped)) throw error;
      return error.reason;
    }
  }
  return "done";
}
