import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "@/db";
import { openDatabase } from "@/db/client";
import { databaseSettings } from "@/lib/base/config";
import { restoreEnv, setEnv } from "../support/env";

afterEach(() => {
  restoreEnv();
});

describe("DATABASE_POOL_SIZE", () => {
  it("is the pool size the process's database opens with: 10 unless set, 1 to 100", () => {
    setEnv({ DATABASE_URL: "postgres://app@db:5432/listings" });
    expect(databaseSettings().poolSize).toBe(10);
    setEnv({ DATABASE_POOL_SIZE: "4" });
    expect(databaseSettings().poolSize).toBe(4);
    for (const refused of ["0", "101", "ten"]) {
      setEnv({ DATABASE_POOL_SIZE: refused });
      expect(() => databaseSettings(), refused).toThrow(/DATABASE_POOL_SIZE/);
    }
  });

  // The direct address: behind test:pg's transaction pooler each statement may reach any server session.
  const url = process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL;
  it.skipIf(!url)(`bounds the server sessions one process holds${url ? "" : " (skipped: needs PostgreSQL, npm run test:pg)"}`, async () => {
    const db = await openDatabase({ url: url!, poolSize: 3 });
    try {
      const sessions = await Promise.all(
        Array.from({ length: 9 }, () => db.rows<{ pid: number }>(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)),
      );
      expect(new Set(sessions.map(([row]) => row.pid)).size).toBe(3);
    } finally {
      await db.close();
    }
  });
});

describe("Database.ping (readiness)", () => {
  const url = process.env.DATABASE_URL;
  it.skipIf(!url)(
    `answers while every connection of the pool is busy${url ? "" : " (skipped: needs PostgreSQL, npm run test:pg)"}`,
    async () => {
      // The production path: DATABASE_URL, behind test:pg's pooler. The pool's only connection sleeps.
      const db = await openDatabase({
        url: url!,
        poolSize: 1,
        pooling: process.env.DATABASE_URL_UNPOOLED ? "transaction" : "session",
        directUrl: process.env.DATABASE_URL_UNPOOLED,
      });
      try {
        const busy = db.rows(sql`select pg_sleep(1)`).then(() => "pool's query");
        const first = await Promise.race([busy, db.ping().then(() => "ping")]);
        expect(first).toBe("ping");
        await busy;
      } finally {
        await db.close();
      }
    },
  );

  it("answers on the run's database, embedded or PostgreSQL", async () => {
    await expect((await database()).ping()).resolves.toBeUndefined();
  });
});
