import { eq } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { withTransaction, type TransactionContext, type StaffActor } from "@/lib/base/context";
import { lockAnyListing, retryWhileBusy } from "@/lib/domain/listings/locking";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { createListing } from "../support/listings";
import { onPostgresRun } from "../support/engine";

const patch = (key: string, code: string, body: unknown) =>
  call(PATCH, { path: `/listings/${code}`, method: "PATCH", key, body, params: { code } });

/** Another session holds the listing's row lock until `release` (`end` also closes the session). */
async function holdListing(code: string) {
  const other = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const holder = other.begin(async (tx) => {
    await tx`select id from listings where code = ${code} for update`;
    locked();
    await held;
  });
  await lockTaken;
  return {
    release,
    end: async () => {
      release();
      await holder;
      await other.end();
    },
  };
}

// Concurrency needs a second session: PGlite runs one, so these run on PostgreSQL (`npm run test:pg`, CI).
if (!onPostgresRun) console.info("listing concurrency tests skipped on PGlite: they run on PostgreSQL with npm run test:pg");
describe.skipIf(!onPostgresRun)("writes to one listing are serialized (real PostgreSQL)", () => {
  it("answers 409 listing_busy and writes nothing while another write holds the listing", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const holder = await holdListing(listing.code);
    try {
      const busy = await patch(key, listing.code, { rooms: 4 });
      expect(busy.status).toBe(409);
      expect(busy.json!.code).toBe("listing_busy");
    } finally {
      await holder.end();
    }
    const { connection: db } = await database();
    const [row] = await db.select().from(listings).where(eq(listings.code, listing.code));
    expect(row.fields.rooms).toBe(3);
    expect(row.version).toBe(1);
    expect((await patch(key, listing.code, { rooms: 4 })).status).toBe(200);
  });

  it("keeps a consistent listing under simultaneous edits: every write is either applied or refused as busy", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => patch(key, listing.code, { price: 100000 + i })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 409).every((a) => a.json!.code === "listing_busy")).toBe(true);
    const applied = statuses.filter((s) => s === 200).length;
    const { connection: db } = await database();
    const [row] = await db.select().from(listings).where(eq(listings.code, listing.code));
    expect(row.version).toBe(1 + applied);
  });

  it("retries a job's write while another holds the listing, waiting as its policy says, then answers listing_busy", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const ctx = await operatorCtx();
    let tries = 0;
    const write = async (tx: TransactionContext<StaffActor>) => {
      tries++;
      return (await lockAnyListing(tx, listing.code)).row.version;
    };
    const holder = await holdListing(listing.code);
    try {
      const waits: number[] = [];
      const backoffMs = (round: number) => {
        waits.push(round);
        return 10;
      };
      await expect(retryWhileBusy(ctx, write, { rounds: 2, backoffMs })).rejects.toMatchObject({ code: "listing_busy" });
      expect([tries, waits]).toEqual([3, [0, 1]]);

      // Inside a caller's transaction the refused lock has ended it: one try, no wait.
      tries = 0;
      await expect(withTransaction(ctx, (tx) => retryWhileBusy(tx, write, { rounds: 2, backoffMs }))).rejects.toMatchObject({
        code: "listing_busy",
      });
      expect([tries, waits]).toEqual([1, [0, 1]]);

      tries = 0;
      const freedAfterTwoTries = (round: number) => {
        if (round === 1) holder.release();
        return 50;
      };
      expect(await retryWhileBusy(ctx, write, { rounds: 20, backoffMs: freedAfterTwoTries })).toBe(1);
      expect(tries).toBeGreaterThanOrEqual(3);
    } finally {
      await holder.end();
    }
  });
});
