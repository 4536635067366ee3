import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { auditApiLog } from "../support/api-log-audit";

/**
 * The API log of a PostgreSQL run, read after every other test file (this project runs last) as an
 * attacker with a copy of it would: no column of any row may hold the secret of a key any file
 * created (each file wrote its keys to TEST_KEYS_DIR, tests/setup/each-file.ts), nor anything in
 * our key format. Embedded, each file's database is audited after the file, before it is restored.
 */
const url = process.env.DATABASE_URL;

describe.skipIf(!url)(`the API log of the whole run${url ? "" : " (skipped: embedded, each file's log is audited after it)"}`, () => {
  it("holds no key secret in any row", async () => {
    const dir = process.env.TEST_KEYS_DIR!;
    const keys = readdirSync(dir).flatMap((file) => readFileSync(path.join(dir, file), "utf8").split("\n").filter(Boolean));
    const db = await openDatabase({ url: url!, poolSize: 1 });
    try {
      expect(await auditApiLog(db, keys), "API log rows holding a key secret").toEqual([]);
    } finally {
      await db.close();
    }
  }, 120_000);
});
