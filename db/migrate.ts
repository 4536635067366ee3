import path from "node:path";
import type { Database } from "./client";

const migrationsFolder = path.resolve(process.cwd(), "db/migrations");

/** Applies the committed drizzle-kit migrations; both drivers run the same files. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.driver === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.connection as never, { migrationsFolder });
  } else {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(database.connection as never, { migrationsFolder });
  }
}
