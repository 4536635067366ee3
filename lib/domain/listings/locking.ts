import { setTimeout as sleep } from "node:timers/promises";
import { postgresError, sqlState } from "@/db/errors";
import {
  inTransaction,
  withTransaction,
  type AccountActor,
  type Actor,
  type ServiceContext,
  type StaffActor,
  type TransactionContext,
} from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { isListingCode } from "./codes";
import { lockListedByCode } from "./internal/queries";
import { type ListedRow } from "./read-shape";

/**
 * Locks a listing the acting account may manage (its own, and its agency's for owners and admins)
 * for the write that runs in `ctx`'s transaction; any other listing answers like a missing one.
 */
export function lockListing(ctx: TransactionContext<AccountActor>, code: string): Promise<ListedRow> {
  return lock(ctx, code, ctx.actor);
}

/** Locks any account's listing: moderation, jobs and the operator only (the context's type says so). */
export function lockAnyListing(ctx: TransactionContext<StaffActor>, code: string): Promise<ListedRow> {
  return lock(ctx, code, undefined);
}

/**
 * Writes to one listing are serialized: a write that finds another in progress does not wait, it
 * gets 409 `listing_busy` and writes nothing.
 */
async function lock(ctx: TransactionContext, code: string, owner: AccountActor | undefined): Promise<ListedRow> {
  if (!isListingCode(code)) throw notFound();
  try {
    // The lister comes with the lock, so a write answers with what it wrote without reading again.
    const found = await lockListedByCode(ctx.db, owner, code);
    if (!found || found.row.deletedAt) throw notFound();
    return found;
  } catch (error) {
    if (postgresError(error)?.code === sqlState.lockNotAvailable) throw new AppError("listing_busy");
    throw error;
  }
}

/**
 * How a write waits for a listing another write holds: up to `rounds` more tries, the one after the
 * nth refusal (n from 0) `backoffMs(n)` milliseconds later.
 */
export interface BusyRetry {
  rounds: number;
  backoffMs: (round: number) => number;
}

/**
 * Runs `write` in a transaction of its own and, while the listing it locks is busy (`listing_busy`),
 * again in a new one after a wait, up to `policy.rounds` times; then the caller gets the
 * `listing_busy`. For work that has no client to answer 409 to (a job). Inside a caller's
 * transaction it tries once: the refused lock has ended that transaction.
 */
export async function retryWhileBusy<A extends Actor, T>(
  ctx: ServiceContext<A>,
  write: (tx: TransactionContext<A>) => Promise<T>,
  policy: BusyRetry,
): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await withTransaction(ctx, write);
    } catch (error) {
      const busy = error instanceof AppError && error.code === "listing_busy";
      if (!busy || round >= policy.rounds || inTransaction(ctx)) throw error;
      await sleep(policy.backoffMs(round));
    }
  }
}
