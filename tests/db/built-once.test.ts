import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database, type Database } from "@/db";
import { openDatabase, type Handle } from "@/db/client";
import { allColumns, builtOnce } from "@/db/built-once";
import { accounts, agencies, listings } from "@/db/schema";
import { accountWithKey } from "../support/fixtures";
import { createListing } from "../support/listings";
import { onPostgresRun } from "../support/engine";

const listed = { row: listings, accountName: accounts.name, agencyName: agencies.name };
const byCode = builtOnce<{ row: typeof listings.$inferSelect; accountName: string; agencyName: string | null }>(listed, (db) =>
  db
    .select(listed)
    .from(listings)
    .innerJoin(accounts, eq(accounts.id, listings.accountId))
    .leftJoin(agencies, eq(agencies.id, listings.agencyId))
    .where(eq(listings.code, sql.placeholder("code"))),
);
const setPending = builtOnce<typeof listings.$inferSelect>(allColumns(listings), (db) =>
  db
    .update(listings)
    .set({ pendingFields: sql.placeholder("pending"), updatedAt: sql.placeholder("at") } as never)
    .where(eq(listings.code, sql.placeholder("code")))
    .returning(),
);

describe("statements built once", () => {
  it("answer the rows drizzle's own query answers, mapped the same way (dates, JSON, nested tables, a left join's null)", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const { connection: db } = await database();
    const expected = await db
      .select(listed)
      .from(listings)
      .innerJoin(accounts, eq(accounts.id, listings.accountId))
      .leftJoin(agencies, eq(agencies.id, listings.agencyId))
      .where(eq(listings.code, code));
    const rows = await byCode.run(db, { code });
    expect(rows).toEqual(expected);
    expect(rows[0].row.createdAt).toBeInstanceOf(Date);
    expect(rows[0].agencyName).toBeNull();
    expect(await byCode.run(db, { code: "NOSUCHCODE" })).toEqual([]);
  });

  it("run inside a transaction, whose rollback undoes their write, and encode each value by its column", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const { connection: db } = await database();
    const at = new Date("2026-11-27T10:00:00.000Z");
    await expect(
      db.transaction(async (tx) => {
        const [updated] = await setPending.run(tx, { code, pending: { title: "în așteptare" }, at });
        expect(updated).toMatchObject({ code, pendingFields: { title: "în așteptare" }, updatedAt: at });
        expect((await byCode.run(tx, { code }))[0].row.pendingFields).toEqual({ title: "în așteptare" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const [after] = await byCode.run(db, { code });
    expect(after.row.pendingFields).toBeNull();
    expect(after.row.updatedAt).not.toEqual(at);
  });

  it("decode an SQL field by its own decoder (mapWith) and an aliased one as drizzle does, and leave null undecoded", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const { connection: db } = await database();
    const selection = {
      doubled: sql<number>`${listings.version} * 2`.mapWith((value) => `decoded ${value}`),
      missing: sql<string | null>`null::text`.mapWith(() => "never decoded"),
      code: sql<string>`lower(${listings.code})`.as("lower_code"),
    };
    const computed = builtOnce<{ doubled: string; missing: string | null; code: string }>(selection, (handle) =>
      handle
        .select(selection)
        .from(listings)
        .where(eq(listings.code, sql.placeholder("code"))),
    );
    const expected = await db.select(selection).from(listings).where(eq(listings.code, code));
    const rows = await computed.run(db, { code });
    expect(rows).toEqual(expected);
    expect(rows).toEqual([{ doubled: "decoded 2", missing: null, code: code.toLowerCase() }]);
  });

  it("answer what drizzle's public prepared statement answers, on the pool and in a transaction (the session API a drizzle upgrade may change)", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const { connection: db } = await database();
    const at = new Date("2026-11-28T08:00:00.000Z");
    const publicRead = (handle: Handle) =>
      handle
        .select(listed)
        .from(listings)
        .innerJoin(accounts, eq(accounts.id, listings.accountId))
        .leftJoin(agencies, eq(agencies.id, listings.agencyId))
        .where(eq(listings.code, sql.placeholder("code")))
        .prepare("built-once-contract-read");
    expect(await byCode.run(db, { code })).toEqual(await publicRead(db).execute({ code }));
    await expect(
      db.transaction(async (tx) => {
        const [viaSession] = await setPending.run(tx, { code, pending: { title: "prin sesiune" }, at });
        const publicUpdate = tx
          .update(listings)
          .set({ pendingFields: sql.placeholder("pending"), updatedAt: sql.placeholder("at") } as never)
          .where(eq(listings.code, sql.placeholder("code")))
          .returning()
          .prepare("built-once-contract-update");
        const [viaPublic] = await publicUpdate.execute({ code, pending: { title: "prin sesiune" }, at });
        expect(viaSession).toEqual(viaPublic);
        expect(await byCode.run(tx, { code })).toEqual(await publicRead(tx).execute({ code }));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
  });

  const pooled = Boolean(process.env.DATABASE_URL_UNPOOLED);
  const marked = (marker: string, planEachRun: boolean) =>
    builtOnce<{ marker: string }>(
      { marker: sql<string>`${sql.raw(`'${marker}'`)}` },
      (handle) =>
        handle
          .select({ marker: sql<string>`${sql.raw(`'${marker}'`)}` })
          .from(listings)
          .where(eq(listings.code, sql.placeholder("code"))),
      { planEachRun },
    );
  /** Runs a statement built once and one left unnamed in one transaction, and answers the session's prepared statements of each. */
  async function preparedOf(db: Database, code: string) {
    const named = `built-once-named-${Date.now()}`;
    const unnamed = `built-once-unnamed-${Date.now()}`;
    // One transaction: one server session, whose prepared statements pg_prepared_statements lists.
    const prepared = await db.connection.transaction(async (tx) => {
      expect(await marked(named, false).run(tx, { code })).toEqual([{ marker: named }]);
      expect(await marked(unnamed, true).run(tx, { code })).toEqual([{ marker: unnamed }]);
      const rows = await db.rows<{ statement: string }>(sql`select statement from pg_prepared_statements`, tx);
      return rows.map((row) => row.statement);
    });
    return {
      named: prepared.filter((statement) => statement.includes(named)),
      unnamed: prepared.filter((statement) => statement.includes(unnamed)),
    };
  }

  it.skipIf(!onPostgresRun)(
    `are prepared by name on a session of PostgreSQL, so planned once for every run, unless planEachRun leaves them unnamed${onPostgresRun ? "" : " (skipped: PGlite names no statement; npm run test:pg runs it)"}`,
    async () => {
      const { key } = await accountWithKey();
      const { code } = await createListing(key);
      // Behind the pooler (npm run test:pg), the direct address is the session connection.
      const direct = await openDatabase({ url: process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL, poolSize: 1 });
      try {
        const prepared = await preparedOf(direct, code);
        expect(prepared.named).toHaveLength(1);
        expect(prepared.unnamed).toEqual([]);
      } finally {
        await direct.close();
      }
    },
  );

  it.skipIf(!pooled)(
    `are never prepared by name behind a transaction-mode pooler, where the next run may reach another server session${pooled ? "" : " (skipped: DATABASE_URL_UNPOOLED is not set; npm run test:pg runs it through PgBouncer)"}`,
    async () => {
      const { key } = await accountWithKey();
      const { code } = await createListing(key);
      const prepared = await preparedOf(await database(), code);
      expect(prepared).toEqual({ named: [], unnamed: [] });
    },
  );
});
