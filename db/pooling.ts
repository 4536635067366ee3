import type { Sql, TransactionSql } from "postgres";

/**
 * Whether consecutive statements of one client session can run on different server sessions at
 * `url`: true behind a transaction-mode pooler (PgBouncer's `pool_mode = transaction`, Neon's and
 * Supabase's pooled addresses), false on PostgreSQL itself and behind a session pooler.
 *
 * Two client connections: the first asks for its server process, the second opens a transaction and
 * asks for its own, then the first asks again. A session keeps its server process, so neither can see
 * the first one's process change or the second one take it; a transaction pooler gives the released
 * server to the next transaction (PgBouncer takes the most recently used one), and the first client's
 * next statement then runs elsewhere. Costs two short connections at start.
 */
export async function statementsCrossSessions(url: string): Promise<boolean> {
  const { default: postgres } = await import("postgres");
  const options = { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 5 } as const;
  const first = postgres(url, options);
  const second = postgres(url, options);
  const backend = async (sql: Sql | TransactionSql) => (await sql`select pg_backend_pid() as pid`)[0].pid as number;
  try {
    const before = await backend(first);
    return await second.begin(async (tx) => {
      // A pool of one server connection gives it to this transaction: the first client's next statement would wait on it.
      if ((await backend(tx)) === before) return true;
      return (await backend(first)) !== before;
    });
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
