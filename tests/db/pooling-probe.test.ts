import { describe, expect, it } from "vitest";
import { statementsCrossSessions } from "@/db/pooling";

const direct = process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL;
const pooled = process.env.DATABASE_URL_UNPOOLED ? process.env.DATABASE_URL : undefined;

describe("the start-up probe for a transaction-mode pooler", () => {
  it.skipIf(!direct)(`finds none on PostgreSQL itself${direct ? "" : " (skipped: npm run test:pg runs it)"}`, async () => {
    expect(await statementsCrossSessions(direct!)).toBe(false);
  });

  it.skipIf(!pooled)(
    `finds PgBouncer in transaction mode${pooled ? "" : " (skipped: npm run test:pg runs it through PgBouncer)"}`,
    async () => {
      expect(await statementsCrossSessions(pooled!)).toBe(true);
    },
  );
});
