import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Database, Handle, Transaction } from "@/db";
import { databaseUnavailable } from "@/db/errors";
import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { logger } from "@/lib/base/logger";

/** An account's place in an agency: owners and admins also manage their colleagues' listings. */
export interface AgencyMembership {
  id: string;
  role: "owner" | "admin" | "agent";
}

/** Who acts for one account (a key, or the account signed in to the portal): every listing read and write is scoped to it. */
export type AccountActor =
  | { kind: "api"; accountId: string; keyId: string; agency: AgencyMembership | null }
  | { kind: "account"; accountId: string; agency: AgencyMembership | null };

export type ApiActor = Extract<AccountActor, { kind: "api" }>;

export type ModeratorActor = { kind: "moderator"; accountId: string };
export type OperatorActor = { kind: "operator" };
export type SystemActor = { kind: "system" };

/** Who acts on every account's data: a moderator, the operator's CLI, jobs, start-up and the seed. */
export type StaffActor = ModeratorActor | OperatorActor | SystemActor;

/** A caller without a key (the vocabulary, public pages): reads what everyone may read. */
export type PublicActor = { kind: "public" };

export type Actor = AccountActor | StaffActor | PublicActor;

/**
 * What every service receives: the database, the handle its queries go to, and who acts. The actor
 * is the scope: services that act on one account's data take `ServiceContext<AccountActor>`, those
 * that may touch any account's take `ServiceContext<StaffActor>`, so a route's keyed context cannot
 * reach the unscoped forms (a type error). Contexts come from the factories below, never as literals.
 */
export interface ServiceContext<A extends Actor = Actor> {
  database: Database;
  /** Where queries go: the connection, or the transaction this context runs in (`withTransaction`). */
  db: Handle;
  actor: A;
  /** The moment the work is done at (a request's, a job pass's, `jobs:run --now`): the time its writes carry. */
  now: Date;
  /**
   * The time as long work goes on: `now` when the context is made, then moving at the real pace. A job
   * that outlasts its moment reads it for its leases and for when each step ended (photo processing).
   */
  clock: Clock;
  locale?: Locale;
  /** A request's: aborted when its client has gone away, so work that only waits for it (a long poll) stops. */
  signal?: AbortSignal;
  /**
   * Where the reads that tolerate lag go (`readMayLag`): `replicas` when the caller may see the
   * database as it was a moment ago (the API's and the public's reads of the catalog), `primary` when
   * it must read what it has just written (an account's own pages, staff, jobs).
   */
  reads: Reads;
}

export type Reads = "replicas" | "primary";

export type Clock = () => Date;

/** A clock reading `start` now and moving on at the real pace, so a moved moment (`jobs:run --now`) stays moved. */
export const clockFrom = (start: Date): Clock => {
  const offsetMs = start.getTime() - Date.now();
  return () => new Date(Date.now() + offsetMs);
};

/** A context whose queries run in one open transaction. */
export type TransactionContext<A extends Actor = Actor> = ServiceContext<A> & { db: Transaction };

/**
 * Runs `fn` in a transaction: a new one, or the one `ctx` already runs in, so a service called by
 * another joins its caller's transaction (its writes commit or roll back with the caller's) and never
 * waits on it (on PGlite a query outside an open transaction waits for it to end). A joined
 * service's failed statement fails the whole transaction, as in PostgreSQL it must.
 */
export async function withTransaction<A extends Actor, T>(
  ctx: ServiceContext<A>,
  fn: (ctx: TransactionContext<A>) => Promise<T>,
): Promise<T> {
  if (inTransaction(ctx)) return fn(ctx);
  const committed: CommitTask[] = [];
  const result = await ctx.database.connection.transaction((tx) => {
    commitTasks.set(tx, committed);
    return fn({ ...ctx, db: tx });
  });
  for (const task of committed) await task();
  return result;
}

/** Work that must follow a commit and never a rollback; it reports its own failures (it runs after the answer is decided). */
type CommitTask = () => Promise<void>;
const commitTasks = new WeakMap<Handle, CommitTask[]>();

/**
 * Runs `task` once the transaction `tx` belongs to has committed (`withTransaction`'s), never when it
 * rolls back. False when `tx` is no such transaction: the caller's safety net then covers the work.
 */
export function afterCommit(tx: Handle, task: CommitTask): boolean {
  const tasks = commitTasks.get(tx);
  tasks?.push(task);
  return tasks !== undefined;
}

/**
 * Runs `read` on a read replica when the database has some and the context allows it (`ctx.reads`),
 * otherwise on the primary. A service opts in by calling it, for reads that may see the database as
 * it was a moment ago (the public catalog, the vocabulary); every other query stays on the primary,
 * as does a read inside a transaction. Explicit rather than drizzle's `withReplicas`, which sends
 * every `select` outside a transaction to a replica (an owner's read of its own write included) and
 * fails the query when the replica it picked is down.
 *
 * A replica that fails the read never fails the request: any error but ours (an `AppError` is the
 * answer, not a failure) runs the read again on the primary. A replica that could not be reached
 * rests (`ReplicaSet`); the log says so once when it stops serving (warn) and once when it serves
 * again (info).
 */
export async function readMayLag<A extends Actor, T>(ctx: ServiceContext<A>, read: (ctx: ServiceContext<A>) => Promise<T>): Promise<T> {
  const replicas = ctx.database.replicas;
  const replica = ctx.reads === "replicas" && !inTransaction(ctx) ? replicas?.pick() : undefined;
  if (!replicas || !replica) return read(ctx);
  try {
    const result = await read({ ...ctx, db: replica.connection });
    if (replicas.answered(replica)) logger.info("read replica serves again", { replica: replica.name });
    return result;
  } catch (error) {
    if (error instanceof AppError) {
      if (replicas.answered(replica)) logger.info("read replica serves again", { replica: replica.name });
      throw error;
    }
    const unreachable = databaseUnavailable(error);
    if (unreachable && replicas.unreachable(replica)) {
      logger.warn("read replica unreachable: its reads go to the primary until it answers again", {
        replica: replica.name,
        code: unreachable,
      });
    }
    return read(ctx);
  }
}

export const inTransaction = <A extends Actor>(ctx: ServiceContext<A>): ctx is TransactionContext<A> => is(ctx.db, PgTransaction);

interface ContextOptions {
  now?: Date;
  /** One clock for many contexts (a job pass's); otherwise the context's own, from `now`. */
  clock?: Clock;
  locale?: Locale;
  signal?: AbortSignal;
  /** Where reads that tolerate lag go; each factory says its default. */
  reads?: Reads;
}

const contextOf = <A extends Actor>(database: Database, actor: A, options: ContextOptions, reads: Reads): ServiceContext<A> => {
  const now = options.now ?? options.clock?.() ?? new Date();
  return {
    database,
    db: database.connection,
    actor,
    now,
    clock: options.clock ?? clockFrom(now),
    reads: options.reads ?? reads,
    ...(options.locale ? { locale: options.locale } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
};

/** Jobs, start-up and the seed: the product itself acting, on every account's data. */
export const systemContext = (database: Database, options: ContextOptions = {}): ServiceContext<SystemActor> =>
  contextOf(database, { kind: "system" }, options, "primary");

/** The operator's CLI (and tests acting as the operator): every account's data. */
export const operatorContext = (database: Database, options: ContextOptions = {}): ServiceContext<OperatorActor> =>
  contextOf(database, { kind: "operator" }, options, "primary");

/**
 * A request with an API key: the key's account and its agency membership. Its reads of the public
 * catalog may lag (the catalog is everyone's); its own listings, events and idempotent replays are
 * read by services that never ask for a replica.
 */
export const apiContext = (
  database: Database,
  caller: { accountId: string; keyId: string; agency: AgencyMembership | null },
  options: ContextOptions = {},
): ServiceContext<ApiActor> =>
  contextOf(database, { kind: "api", accountId: caller.accountId, keyId: caller.keyId, agency: caller.agency }, options, "replicas");

/** An account acting for itself: the portal (and tests). */
export const accountContext = (
  database: Database,
  account: { accountId: string; agency: AgencyMembership | null },
  options: ContextOptions = {},
): ServiceContext<Extract<AccountActor, { kind: "account" }>> =>
  contextOf(database, { kind: "account", accountId: account.accountId, agency: account.agency }, options, "primary");

/**
 * A moderator on the moderation desk: every account's listings, but the services refuse their own
 * and their agency's (checked against the account's current rows, not this context).
 */
export const moderatorContext = (
  database: Database,
  moderator: { accountId: string },
  options: ContextOptions = {},
): ServiceContext<ModeratorActor> => contextOf(database, { kind: "moderator", accountId: moderator.accountId }, options, "primary");

/** A caller without a key: public endpoints and pages. */
export const publicContext = (database: Database, options: ContextOptions = {}): ServiceContext<PublicActor> =>
  contextOf(database, { kind: "public" }, options, "replicas");

/**
 * The same staff context acting as one account, in the same transaction when there is one: the seed
 * creates each seller's listings through the account's own services.
 */
export const asAccount = (
  ctx: ServiceContext<StaffActor>,
  account: { accountId: string; agency: AgencyMembership | null },
): ServiceContext<Extract<AccountActor, { kind: "account" }>> => ({
  ...ctx,
  actor: { kind: "account", accountId: account.accountId, agency: account.agency },
});

export const actorLabel = (actor: Actor): string =>
  actor.kind === "api" ? `api:${actor.keyId}` : "accountId" in actor ? `${actor.kind}:${actor.accountId}` : actor.kind;
