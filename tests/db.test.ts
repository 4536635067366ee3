import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts } from "@/db/schema";
import { newId } from "@/lib/base/ids";

describe("database handle", () => {
  it("runs the migrations and the same queries on the configured driver", async () => {
    const { connection: db, driver, rows } = await database();
    expect(driver).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    const id = newId("account");
    await db.insert(accounts).values({ id, email: `${id}@example.test`, name: "T", passwordHash: "x" });
    const found = await rows<{ id: string }>(sql`select id from accounts where id = ${id}`);
    expect(found).toEqual([{ id }]);
  });

  it("rolls a failed transaction back on the configured driver", async () => {
    const { connection: db } = await database();
    const id = newId("account");
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(accounts).values({ id, email: `${id}@example.test`, name: "T", passwordHash: "x" });
        throw new Error("forced");
      }),
    ).rejects.toThrow("forced");
    const found = await db
      .select()
      .from(accounts)
      .where(sql`id = ${id}`);
    expect(found).toEqual([]);
  });
});
