import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const url = process.env.DATABASE_URL;
if (!url) console.warn("Driver fault tests on real PostgreSQL skipped: DATABASE_URL is not set (npm run test:pg runs them)");

/**
 * When PostgreSQL ends a transaction's session, postgres.js rejects `sql.begin()` but the callback
 * runs on, and its pool reconnects the same connection object for the next query. Without the
 * patch (patches/postgres+3.4.9.patch, docs/operations.md) the callback's later statements went to
 * that replacement session: run there outside any transaction (committed on their own), or
 * answered by the new session's first ReadyForQuery with no rows at all (a listing insert then
 * failed with "Cannot read properties of undefined"). Each must fail as the transaction did.
 */
describe.skipIf(!url)("a transaction whose session PostgreSQL ends (skipped: DATABASE_URL is not set)", () => {
  const appName = `listings_tx_lost_${process.pid}_${randomBytes(3).toString("hex")}`;
  const table = `tx_lost_probe_${randomBytes(4).toString("hex")}`;
  let admin: postgres.Sql;

  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create table ${table} (label text not null)`);
  });

  afterAll(async () => {
    await admin?.unsafe(`drop table if exists ${table}`);
    await admin?.end({ timeout: 5 });
  });

  /** One pooled connection, so the pool's next query reopens the very object the transaction held. */
  const pool = () => postgres(url!, { max: 1, onnotice: () => {}, prepare: true, connection: { application_name: appName } });

  const terminateSessions = () =>
    admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${appName} and datname = current_database()`;

  /**
   * Starts a transaction that has run one statement and then waits for `resume`; ends its session
   * and waits until `begin()` has failed. Answers how to let the callback go on with `late`.
   */
  async function transactionCutOff(sql: postgres.Sql, late: (tx: postgres.TransactionSql) => Promise<unknown>) {
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    let lateOutcome!: Promise<unknown>;
    const transaction = sql.begin(async (tx) => {
      await tx`select 1`;
      started();
      await resumed;
      lateOutcome = late(tx);
      return lateOutcome;
    });
    const failed = transaction.then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    await begun;
    await terminateSessions();
    const error = await failed;
    return { error, resume: () => (resume(), new Promise<void>((r) => setImmediate(r)).then(() => lateOutcome)) };
  }

  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (rows) => ({ answered: rows }),
      (error: Error & { code?: string }) => ({ failed: error.code }),
    );

  it("fails a statement made after the pool has opened a new session, and runs nothing on it", async () => {
    const sql = pool();
    try {
      const cut = await transactionCutOff(sql, (tx) => tx.unsafe(`insert into ${table} (label) values ('late') returning label`));
      expect(cut.error?.code).toMatch(/^(57P01|CONNECTION_CLOSED)$/);
      // The pool reconnects the connection object the transaction held, and uses it.
      expect(await sql`select 2 as two`).toEqual([{ two: 2 }]);
      expect(await outcome(cut.resume())).toEqual({ failed: "CONNECTION_CLOSED" });
      expect(await sql`select 3 as three`).toEqual([{ three: 3 }]);
      expect(await admin.unsafe(`select label from ${table}`)).toEqual([]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("fails a statement made while the pool opens the new session, instead of answering it with no rows", async () => {
    const sql = pool();
    try {
      const cut = await transactionCutOff(sql, (tx) => tx.unsafe(`insert into ${table} (label) values ('early') returning label`));
      expect(cut.error?.code).toMatch(/^(57P01|CONNECTION_CLOSED)$/);
      const reopening = sql`select 2 as two`.execute();
      const late = outcome(cut.resume());
      expect(await reopening).toEqual([{ two: 2 }]);
      expect(await late).toEqual({ failed: "CONNECTION_CLOSED" });
      expect(await sql`select 3 as three`).toEqual([{ three: 3 }]);
      expect(await admin.unsafe(`select label from ${table}`)).toEqual([]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
