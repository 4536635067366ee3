import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { databaseSettings, resetConfig } from "@/lib/base/config";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe("DATABASE_POOL_SIZE", () => {
  it("is the pool size the process's database opens with: 10 unless set, 1 to 100", () => {
    vi.stubEnv("DATABASE_URL", "postgres://app@db:5432/listings");
    resetConfig();
    expect(databaseSettings().poolSize).toBe(10);
    vi.stubEnv("DATABASE_POOL_SIZE", "4");
    resetConfig();
    expect(databaseSettings().poolSize).toBe(4);
    for (const refused of ["0", "101", "ten"]) {
      vi.stubEnv("DATABASE_POOL_SIZE", refused);
      resetConfig();
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
