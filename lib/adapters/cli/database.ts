import { sql } from "drizzle-orm";
import { z } from "zod";
import { migrateDatabase } from "@/db/migrate";
import { config } from "@/lib/base/config";
import { seedSandbox } from "@/lib/domain/seed";
import { defineCommand } from "./command";
import { CliError } from "./reply";

export const databaseCommands = [
  defineCommand({
    name: "db:migrate",
    summary:
      "Applies the committed migrations the database lacks (on PostgreSQL under a lock: runs at once apply each migration once); prints the ones it applied.",
    args: z.object({}),
    run: async (ctx) => {
      const applied = await migrateDatabase(ctx.database);
      const [{ count }] = await ctx.database.rows<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
      return { migrated: true, driver: ctx.database.driver, applied: applied.map((migration) => migration.tag), migrations: count };
    },
  }),
  defineCommand({
    name: "db:seed",
    summary: "Seeds the sandbox with its demo data, unless the demo account exists already.",
    args: z.object({}),
    run: async (ctx) => {
      if (config().APP_ENV !== "sandbox") {
        throw new CliError("sandbox_only", "Test data is seeded only in the sandbox (APP_ENV=sandbox).", 1);
      }
      return { ...(await seedSandbox({ ctx })) };
    },
  }),
];
