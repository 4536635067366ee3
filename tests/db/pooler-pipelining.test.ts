import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { startPgBouncer, type PgBouncer } from "@/db/pgbouncer";

const direct = process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL;

/**
 * postgres.js pipelines the next statement behind one without parameters in flight on a busy
 * connection. Unnamed (behind a pooler), a statement with parameters is first parsed and described
 * without a Sync; PgBouncer in transaction mode hands the server to another client at the first
 * statement's ReadyForQuery and drops the description due to the second ("got packet '1' from server
 * when not linked"), which then waits forever: a request hung until the load balancer gave up.
 * Every statement here must come back, with its own answer.
 */
describe.skipIf(!direct)(
  `more statements than connections through PgBouncer in transaction mode${direct ? "" : " (skipped: needs PostgreSQL, npm run test:pg)"}`,
  () => {
    // A pooler of its own: what is measured is this file's two connections, not the run's other clients.
    let pooler: PgBouncer;
    let db: Database;
    beforeAll(async () => {
      pooler = await startPgBouncer(direct!, 4);
      db = await openDatabase({ url: pooler.pooled(direct!), poolSize: 2, pooling: "transaction", directUrl: direct });
    });
    afterAll(async () => {
      await db?.close();
      await pooler?.stop();
    });

    it("all come back, each with its own answer", async () => {
      const statements = Array.from({ length: 200 }, (_, n) =>
        // One without parameters (and a short sleep, so the next queues behind it), one with, in turn.
        db.rows<{ n: number }>(n % 2 ? sql.raw(`select ${n} as n, pg_sleep(0.005)`) : sql`select ${n}::int as n`),
      );
      const answers = await Promise.all(statements);
      expect(answers.map(([row]) => row.n)).toEqual(Array.from({ length: 200 }, (_, n) => n));
    });

    it("transactions run, more of them than connections, each on a connection of its own", async () => {
      // One statement at a time per connection (max_pipeline 0): the driver must still reserve a
      // transaction's connection at BEGIN (porsager/postgres#1210, patched), or every one fails.
      const sessions = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          db.connection.transaction(async (tx) => {
            const [first] = await db.rows<{ pid: number }>(sql`select pg_backend_pid() as pid, ${n}::int as n`, tx);
            const [again] = await db.rows<{ pid: number }>(sql`select pg_backend_pid() as pid`, tx);
            return [first.pid, again.pid];
          }),
        ),
      );
      // Within a transaction, the pooler keeps the same server: both statements ran in one session.
      for (const [first, again] of sessions) expect(again).toBe(first);
    });

    it("pings come back while the pool's connections are busy with them", async () => {
      const busy = Array.from({ length: 20 }, () => db.rows(sql.raw("select pg_sleep(0.01)")));
      await Promise.all([...busy, ...Array.from({ length: 5 }, () => db.ping())]);
    });
  },
);
