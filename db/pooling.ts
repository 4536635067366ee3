import type { Sql, TransactionSql } from "postgres";

/** Rounds of the probe: a busy pooler hands servers out in any order, and one round can miss it. */
const probeRounds = 10;

/**
 * Whether consecutive statements of one client session can run on different server sessions at
 * `url`: true behind a transaction-mode pooler (PgBouncer's `pool_mode = transaction`, Neon's and
 * Supabase's pooled addresses), false on PostgreSQL itself and behind a session pooler.
 *
 * Two client connections: the first asks for its server process; then, in each round, the second
 * opens a transaction and asks for its own, and the first asks again. A session keeps its server
 * process, so on PostgreSQL itself no round can see the first one's process change or the second one
 * take it: the probe never mistakes a session for a pooler. A transaction pooler gives a released
 * server to the next transaction (PgBouncer takes the most recently used one, so a quiet pooler is
 * found in the first round); on a busy one other clients take and give back servers in between, so
 * the probe tries `probeRounds` times. Costs two short connections and a few milliseconds at start.
 */
export async function statementsCrossSessions(url: string): Promise<boolean> {
  const { default: postgres } = await import("postgres");
  const options = { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 5 } as const;
  const first = postgres(url, options);
  const second = postgres(url, options);
  const backend = async (sql: Sql | TransactionSql) => (await sql`select pg_backend_pid() as pid`)[0].pid as number;
  try {
    const before = await backend(first);
    for (let round = 0; round < probeRounds; round++) {
      const crossed = await second.begin(async (tx) => {
        // A pool of one server connection gives it to this transaction: the first client's next statement would wait on it.
        if ((await backend(tx)) === before) return true;
        return (await backend(first)) !== before;
      });
      if (crossed) return true;
    }
    return false;
  } finally {
    await Promise.all([first.end({ timeout: 1 }), second.end({ timeout: 1 })]);
  }
}

/** `DATABASE_URL` behaves as a transaction-mode pooler while the settings say it is not one. */
export class PoolerModeError extends Error {
  constructor() {
    super(
      "DATABASE_URL is a transaction-mode pooler (statements of one session ran on different server connections): " +
        "set DATABASE_POOLING=transaction and DATABASE_URL_UNPOOLED to the database's direct address (docs/operations.md, Poolers)",
    );
  }
}
