import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { replicaName, ReplicaSet } from "./replicas";
import { traceQueries } from "./tracing";

/**
 * The drizzle handle on the whole database (a pool for PostgreSQL, the instance when embedded): where
 * transactions start. Opened without the schema: its relational query API (`db.query.…`) is not used,
 * and drizzle would otherwise build a query builder per table for every transaction it opens (a
 * per-PATCH cost the profile showed, docs/benchmarks.md).
 */
export type Connection = PgDatabase<PgQueryResultHKT>;
/** The handle of one open transaction. */
export type Transaction = Parameters<Parameters<Connection["transaction"]>[0]>[0];
/** Where a query goes: the connection, or an open transaction. */
export type Handle = Connection | Transaction;

/** The rows of a raw `sql` query's result, whichever driver ran it (postgres.js gives an array, PGlite `{ rows }`). */
export const resultRows = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/** An opened database: its connection, driver and lifecycle. */
export interface Database {
  connection: Connection;
  driver: "pglite" | "postgres";
  /** Rows of a raw `sql` query, whichever driver ran it. */
  rows<T>(query: Parameters<Connection["execute"]>[0], on?: Handle): Promise<T[]>;
  close(): Promise<void>;
  /**
   * A `select 1` that never waits behind the pool's queries (readiness): on PostgreSQL on a connection
   * of its own, opened at the first ping. A pool busy with requests is a busy database, not an
   * unreachable one: a check queued behind them timed out under load, and the load balancer took out
   * every instance that was serving.
   */
  ping(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY of `channel` (sent by any session, delivered at
   * its commit); resolves with the function that stops listening. On PostgreSQL every channel of the
   * process shares one connection (postgres.js keeps one for LISTEN, re-listening when it reconnects).
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** The PGlite instance when embedded (the operator channel and tests need it). */
  pglite?: import("@electric-sql/pglite").PGlite;
  /**
   * On PostgreSQL behind a transaction-mode pooler: the direct address, for what needs a session of
   * its own (migrations hold a session lock; `listen` uses it already).
   */
  directUrl?: string;
  /**
   * On PostgreSQL with `DATABASE_REPLICA_URLS`: the read replicas, for the reads that tolerate lag and
   * say so (`readMayLag`, lib/base/context.ts). Every other query, and every transaction, goes to
   * `connection`, the primary.
   */
  replicas?: ReplicaSet;
}

export interface OpenOptions {
  /** postgres.js connection string; when absent the embedded PGlite is used. */
  url?: string;
  /**
   * What `url` is: `transaction` for a transaction-mode pooler, whose statements of one session may run
   * on different server connections, `session` (the default) for PostgreSQL itself or a session pooler.
   */
  pooling?: Pooling;
  /** With `pooling: "transaction"`: the direct address, where `listen` and migrations go. */
  directUrl?: string;
  /** PGlite data directory, or `memory://` for an in-memory database. */
  dataDir?: string;
  /** A dumped PGlite data directory to start from (tests use a migrated template). */
  loadFrom?: Blob;
  poolSize?: number;
  /** PostgreSQL addresses of read replicas of `url`'s database, each reached as `url` is (`pooling`). */
  replicaUrls?: string[];
  /** How long a replica that could not be reached rests before a read tries it again (30 s when absent). */
  replicaRetryMs?: number;
}

export type Pooling = "session" | "transaction";

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (!options.url) {
    if (options.replicaUrls?.length) throw new ReplicaSettingsError();
    return openPglite(options);
  }
  const pooling = options.pooling ?? "session";
  if (pooling === "transaction" && !options.directUrl) throw new PoolingSettingsError();
  return openPostgres(options.url, options.poolSize ?? 10, pooling === "transaction" ? options.directUrl : undefined, {
    urls: options.replicaUrls ?? [],
    retryMs: options.replicaRetryMs ?? defaultReplicaRetryMs,
  });
}

/**
 * How long a replica that could not be reached rests before a read tries it again: long enough that a
 * replica which is down costs the reads of a busy server almost nothing (each try of an address that
 * does not answer waits up to `connectTimeoutSeconds`), short enough that one back serves again soon.
 */
const defaultReplicaRetryMs = 30_000;

/** Replicas without a primary: the embedded database has none. */
export class ReplicaSettingsError extends Error {
  constructor() {
    super(
      "DATABASE_REPLICA_URLS is set but DATABASE_URL is not: read replicas serve a PostgreSQL primary (docs/operations.md, Read replicas)",
    );
  }
}

/** A transaction-mode pooler without a direct address: migrations and `LISTEN` would have no session to run in. */
export class PoolingSettingsError extends Error {
  constructor() {
    super(
      "DATABASE_URL is a transaction-mode pooler (DATABASE_POOLING=transaction) but DATABASE_URL_UNPOOLED is not set: " +
        "set it to the database's direct address, which migrations and LISTEN need (docs/operations.md, Poolers)",
    );
  }
}

/**
 * Seconds postgres.js waits for a connection before failing the query (its default is 30): a
 * request reaching a database that does not answer gets its 503 after this long instead of
 * holding the client. Terminated connections are replaced lazily by the next query.
 */
const connectTimeoutSeconds = 5;

/**
 * Seconds before a closed connection reconnects, by failures since the pool last connected. The
 * driver's default grows to 20 s after a handful of resets, and a query handed to that connection
 * waits it out: when many sessions end at once (a restart), requests would hang that long after
 * PostgreSQL is back. A second at most keeps the retries gentle and the wait short.
 */
const reconnectBackoff = (failures: number): number => Math.min(0.05 * 2 ** failures, 1);

/**
 * The pool on `url`; behind a transaction-mode pooler (`directUrl` given) without named prepared
 * statements, since a statement prepared on one server connection would be run by name on another
 * (SQLSTATE 26000, or another statement of that name): every statement then goes unnamed, its
 * parameters' types asked for before it is bound and run (two round trips). `LISTEN` holds a session, so it
 * goes to the direct address there. Each replica gets a pool of its own of the same size and kind
 * (postgres.js connects lazily: a replica no read reaches holds no connection).
 */
async function openPostgres(
  url: string,
  max: number,
  directUrl: string | undefined,
  replicaSettings: { urls: string[]; retryMs: number },
): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle, PostgresJsPreparedQuery } = await import("drizzle-orm/postgres-js");
  traceQueries(PostgresJsPreparedQuery, "postgres");
  const options = { onnotice: () => {}, connect_timeout: connectTimeoutSeconds, backoff: reconnectBackoff };
  // postgres.js pipelines a statement without parameters behind the one in flight on a busy connection,
  // each ending in its own Sync. A transaction pooler (PgBouncer 1.18, Debian 12's) hands the server to
  // another client at the first ReadyForQuery, and drops the replies still due: under load a request
  // waited for them forever (81 of 400 such statements through two connections). Behind one, a
  // connection carries one statement at a time (`max_pipeline: 0`); in a session of its own it pipelines.
  const statementOptions = directUrl ? { prepare: false, max_pipeline: 0 } : { prepare: true };
  const client = postgres(url, { ...options, max, ...statementOptions });
  // postgres.js opens a connection of its own for LISTEN, from this client's settings, on first use.
  const listener = directUrl ? postgres(directUrl, { ...options, max: 1 }) : client;
  const connection = drizzle({ client }) as unknown as Connection;
  // Through the same address as the queries (a pooler's failure is theirs too), never queued behind them.
  const pinger = postgres(url, { ...options, max: 1, ...statementOptions });
  const replicaClients = replicaSettings.urls.map((replicaUrl) => ({
    name: replicaName(replicaUrl),
    client: postgres(replicaUrl, { ...options, max, ...statementOptions }),
  }));
  const replicas = replicaClients.length
    ? new ReplicaSet(
        replicaClients.map(({ name, client: replicaClient }) => ({
          name,
          connection: drizzle({ client: replicaClient }) as unknown as Connection,
        })),
        replicaSettings.retryMs,
      )
    : undefined;
  return {
    connection,
    driver: "postgres",
    directUrl,
    replicas,
    rows: async <T>(query: Parameters<Connection["execute"]>[0], on: Handle = connection) => resultRows<T>(await on.execute(query)),
    close: async () => {
      await Promise.all([
        client.end({ timeout: 5 }),
        pinger.end({ timeout: 5 }),
        listener !== client && listener.end({ timeout: 5 }),
        ...replicaClients.map(({ client: replicaClient }) => replicaClient.end({ timeout: 5 })),
      ]);
    },
    ping: async () => {
      await pinger`select 1`;
    },
    listen: async (channel, onNotify) => {
      const { unlisten } = await listener.listen(channel, (payload) => onNotify(payload));
      return unlisten;
    },
  };
}

async function openPglite(options: OpenOptions): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle, PglitePreparedQuery } = await import("drizzle-orm/pglite");
  traceQueries(PglitePreparedQuery, "pglite");
  const dataDir = options.dataDir ?? "memory://";
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, options.loadFrom ? { loadDataDir: options.loadFrom } : {});
  const connection = drizzle({ client: pglite }) as unknown as Connection;
  return {
    connection,
    driver: "pglite",
    pglite,
    rows: async <T>(query: Parameters<Connection["execute"]>[0], on: Handle = connection) => resultRows<T>(await on.execute(query)),
    close: () => pglite.close(),
    // One engine in this process: every query waits its turn anyway.
    ping: async () => {
      await pglite.query("select 1");
    },
    listen: async (channel, onNotify) => pglite.listen(channel, (payload) => onNotify(payload)),
  };
}
