import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accountWithKey } from "../support/fixtures";
import { createListing, validApartment } from "../support/listings";
import { getImport, ndjson, postImport, runImports } from "./support";
import { onPostgresRun } from "../support/engine";

// A listing another transaction holds while the import runs: its line fails under the import's first,
// savepoint-free pass (the lock is refused, NOWAIT), so the whole batch is rolled back and applied again
// line by line under savepoints: that line is tried again, then refused `listing_busy` as a single
// call would be answered 409, and the other lines of its batch are applied once. PostgreSQL only:
// PGlite runs one session, where locks never contend.
describe.skipIf(!onPostgresRun)("an import line whose listing is held by another write (PostgreSQL)", () => {
  it("is refused listing_busy after its retries; the other lines of its batch are applied once", async () => {
    const { key } = await accountWithKey();
    const held = await createListing(key, validApartment({ external_ref: "busy-1" }));
    const posted = await postImport(
      key,
      ndjson([
        validApartment({ external_ref: "free-1" }),
        { external_ref: "busy-1", price: 1 },
        validApartment({ external_ref: "free-2" }),
      ]),
    );
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = (await database()).connection.transaction(async (tx) => {
      await tx.execute(sql`select 1 from listings where code = ${held.code} for update`);
      locked();
      await released;
    });
    await isLocked;
    try {
      await runImports();
    } finally {
      release();
      await holder;
    }
    const read = await getImport(key, posted.json!.data.id);
    expect(read.json!.data.results.map((r: { outcome: string; error_code: string | null }) => [r.outcome, r.error_code])).toEqual([
      ["created", null],
      ["refused", "listing_busy"],
      ["created", null],
    ]);
    expect(read.json!.data.lines).toMatchObject({ total: 3, done: 3, created: 2, refused: 1 });
  });
});
