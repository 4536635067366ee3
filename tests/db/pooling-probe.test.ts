import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgBouncer, type PgBouncer } from "@/db/pgbouncer";
import { statementsCrossSessions } from "@/db/pooling";

const direct = process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL;
const pooled = process.env.DATABASE_URL_UNPOOLED ? process.env.DATABASE_URL : undefined;

describe("the start-up probe for a transaction-mode pooler", () => {
  it.skipIf(!direct)(`finds none on PostgreSQL itself${direct ? "" : " (skipped: npm run test:pg runs it)"}`, async () => {
    expect(await statementsCrossSessions(direct!)).toBe(false);
  });

  describe.skipIf(!pooled)(
    `behind PgBouncer in transaction mode${pooled ? "" : " (skipped: npm run test:pg runs it through PgBouncer)"}`,
    () => {
      // A pooler of its own, which only the probe uses: the run's is busy with every other file's clients.
      let quiet: PgBouncer;
      beforeAll(async () => {
        quiet = await startPgBouncer(direct!);
      });
      afterAll(() => quiet?.stop());

      it("finds one that only the probe uses", async () => {
        expect(await statementsCrossSessions(quiet.pooled(direct!))).toBe(true);
      });

      it("finds the run's, busy with other clients", async () => {
        expect(await statementsCrossSessions(pooled!)).toBe(true);
      });
    },
  );
});
