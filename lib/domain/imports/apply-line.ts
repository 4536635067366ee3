import { setTimeout as sleep } from "node:timers/promises";
import { databaseUnavailable } from "@/db/errors";
import type { ListingImportOutcome } from "@/db/schema";
import type { AccountActor, TransactionContext } from "@/lib/base/context";
import { AppError, ValidationError, type FieldError } from "@/lib/base/errors";
import { resumeFromFeed } from "@/lib/domain/listings/feed-sync";
import { upsertListingByRef } from "@/lib/domain/listings/upsert-by-ref";
import { parseLine } from "./lines";

/** What one line came to: the row `listing_import_lines` keeps of it. */
export interface LineResult {
  line: number;
  externalRef: string | null;
  outcome: ListingImportOutcome;
  listingCode: string | null;
  errorCode: string | null;
  problem: { params: Record<string, string | number>; errors: FieldError[] } | null;
}

// A line whose listing another write holds is tried again a few times, as a job does, before it is
// refused with `listing_busy` (the integrator sends that line again).
const busyRetries = [50, 200, 500];

/** A line read once: its body and `external_ref`, or the refusal a single call would have answered. */
export type ReadLine = { line: number; body: unknown; ref: string } | { line: number; refusal: LineResult };

/**
 * Reads a line as `PUT /listings/ref/{ref}` reads its body (size, JSON, nesting), then its
 * `external_ref`: missing or not a string, it is refused at `/external_ref`.
 */
export function readLine(line: number, text: string): ReadLine {
  let body: unknown;
  try {
    body = parseLine(text);
  } catch (error) {
    return { line, refusal: refused(line, null, error as AppError) };
  }
  const ref = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>).external_ref : undefined;
  if (typeof ref === "string") return { line, body, ref };
  const code = ref === undefined ? "required" : "string";
  return { line, refusal: refused(line, null, new ValidationError([{ pointer: "/external_ref", code }])) };
}

/**
 * Thrown by `applyLine` without savepoints when a line fails: the caller rolls the whole transaction
 * back and applies its lines again with savepoints, so nothing of a failed line is ever committed.
 */
export class LineNeedsSavepoint extends Error {}

/**
 * Applies one read line inside the caller's transaction as `PUT /listings/ref/{ref}` would apply its
 * body: the same validator and upsert, the same events. With `savepoints` the line runs under one,
 * so a refused line leaves nothing behind and the transaction goes on with the next. Without (the
 * common case of lines that all apply: two statements fewer a line), any failure throws
 * `LineNeedsSavepoint` instead. In a `full` import, a listing an earlier full import withdrew is
 * resumed once its line is applied (the line is then `updated`).
 */
export async function applyLine(
  tx: TransactionContext<AccountActor>,
  read: ReadLine,
  options: { savepoints: boolean; full: boolean },
): Promise<LineResult> {
  if ("refusal" in read) return read.refusal;
  const { line, body, ref } = read;
  const upsert = async (ctx: TransactionContext<AccountActor>) => {
    // A line's result keeps no warnings: the duplicate lookup would cost every line a query for nothing.
    const outcome = await upsertListingByRef({ ctx, input: { ref, body, ifMatch: null, warnOfDuplicates: false } });
    const { row } = outcome.listed;
    const resumed = options.full && row.withdrawnByImport !== null && (await resumeFromFeed(ctx, { code: row.code }));
    return { ...outcome, unchanged: outcome.unchanged && !resumed };
  };
  for (let attempt = 0; ; attempt++) {
    try {
      // The driver's own savepoint (a nested transaction): a statement failed under it is the
      // savepoint's, where a plain SAVEPOINT statement would still fail the whole transaction.
      const outcome = options.savepoints ? await tx.db.transaction((savepoint) => upsert({ ...tx, db: savepoint })) : await upsert(tx);
      const kind = outcome.created ? "created" : outcome.unchanged ? "unchanged" : "updated";
      return { line, externalRef: ref, outcome: kind, listingCode: outcome.listed.row.code, errorCode: null, problem: null };
    } catch (error) {
      if (!options.savepoints) throw new LineNeedsSavepoint("a line failed", { cause: error });
      if (databaseUnavailable(error)) throw error;
      const busy = error instanceof AppError && error.code === "listing_busy";
      if (busy && attempt < busyRetries.length) {
        await sleep(busyRetries[attempt]);
        continue;
      }
      // Not ours: a statement failed under the savepoint (the same ref created meanwhile by another
      // call, whose commit it waited for). Once more finds that listing; twice is a fault.
      if (!(error instanceof AppError) && attempt === 0) continue;
      if (!(error instanceof AppError)) throw error;
      const result = refused(line, validRef(ref), error);
      // An older version of the listing than the one stored is not a refusal: the line is outdated.
      return error.code === "stale_source" ? { ...result, outcome: "stale" } : result;
    }
  }
}

function inBody(error: FieldError): FieldError {
  if (error.pointer !== "/ref" || error.in !== "path") return error;
  return { pointer: "/external_ref", code: error.code, params: error.params } as FieldError;
}

const refPattern = /^[A-Za-z0-9._:/-]{1,100}$/;
const validRef = (ref: string): string | null => (refPattern.test(ref) ? ref : null);

function refused(line: number, externalRef: string | null, error: AppError): LineResult {
  // The ref checked in the path of a single call is the line's `external_ref`.
  const errors = error instanceof ValidationError ? error.errors.map(inBody) : [];
  return { line, externalRef, outcome: "refused", listingCode: null, errorCode: error.code, problem: { params: error.params, errors } };
}
