import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "@/db";
import { openDatabase } from "@/db/client";
import { committedMigrations, migrateDatabase, pendingMigrations, SchemaBehindError, verifySchema } from "@/db/migrate";
import { migrateFirst } from "./support";

/**
 * What the server's start-up compares (the applied migrations against the committed journal) and
 * what the migrator reports, on in-memory PGlite databases of its own (the rule does not depend on
 * the driver; release-step.test.ts runs both on PostgreSQL, in processes of their own).
 */
const committed = committedMigrations();
const tags = (migrations: { tag: string }[]) => migrations.map((migration) => migration.tag);

const opened: Database[] = [];
const open = async (template?: string) => {
  const db = await openDatabase({ dataDir: "memory://", loadFrom: template ? new Blob([readFileSync(template)]) : undefined });
  opened.push(db);
  return db;
};
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

// Each test opens PGlite databases of its own (a few seconds each on a busy machine).
describe("pending migrations", { timeout: 60_000 }, () => {
  it("are every committed one on an empty database, none on a migrated one or one a later release migrated further", async () => {
    expect(tags(await pendingMigrations(await open()))).toEqual(tags(committed));

    // The template the test setup migrated (tests/setup/global.ts).
    const db = await open(process.env.PGLITE_TEMPLATE);
    expect(await pendingMigrations(db)).toEqual([]);
    expect(await migrateDatabase(db)).toEqual([]);

    const later = committed.at(-1)!.when + 60_000;
    await db.connection.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('a later release', ${later})`);
    expect(await pendingMigrations(db)).toEqual([]);
    await expect(verifySchema(db)).resolves.toBeUndefined();
    expect(await migrateDatabase(db)).toEqual([]);
  });

  it("on a database an earlier release migrated: the ones after it, refused in one line, then applied", async () => {
    const db = await open();
    await migrateFirst(db, 10);
    const behind = committed.slice(10);
    expect(tags(await pendingMigrations(db))).toEqual(tags(behind));
    const refusal = await verifySchema(db).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SchemaBehindError);
    expect((refusal as Error).message).toBe(
      `the database schema is behind this release: run npm run db:migrate (${behind.length} pending: ${tags(behind).join(", ")})`,
    );
    expect(tags(await migrateDatabase(db))).toEqual(tags(behind));
    await expect(verifySchema(db)).resolves.toBeUndefined();
  });
});
