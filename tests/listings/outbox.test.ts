import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as pause } from "@/app/api/v1/listings/[code]/pause/route";
import { database } from "@/db";
import { events, listings } from "@/db/schema";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing } from "../support/listings";

describe("events outbox", () => {
  it("writes the event in the same transaction: a failure after the state change leaves neither", async () => {
    const { key, account } = await accountWithKey();
    const listing = await activeListing(key);
    const { connection: db } = await database();
    const before = await db.select().from(events).where(eq(events.accountId, account.id)).orderBy(events.seq);
    // Make the event insert of this account fail, after the listing row was already updated.
    await db.execute(
      sql.raw(`create function fail_events_of_${account.id}() returns trigger language plpgsql as $$
      begin raise exception 'forced failure'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger fail_events_${account.id} before insert on events for each row
      when (new.account_id = '${account.id}') execute function fail_events_of_${account.id}()`),
    );
    try {
      const res = await call(pause, { path: `/listings/${listing.code}/pause`, method: "POST", key, params: { code: listing.code } });
      expect(res.status).toBe(500);
      expect(res.text).not.toContain("forced failure");
    } finally {
      await db.execute(sql.raw(`drop trigger fail_events_${account.id} on events`));
      await db.execute(sql.raw(`drop function fail_events_of_${account.id}()`));
    }
    const [row] = await db.select().from(listings).where(eq(listings.code, listing.code));
    expect(row.status).toBe("active");
    expect(await db.select().from(events).where(eq(events.accountId, account.id)).orderBy(events.seq)).toEqual(before);
    const retried = await call(pause, { path: `/listings/${listing.code}/pause`, method: "POST", key, params: { code: listing.code } });
    expect(retried.json!.data.status).toBe("paused");
  });
});
