import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiKeys, events } from "@/db/schema";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { eventId, eventTypes, listEvents, listingEventData, parseEventId, recordEvent } from "@/lib/domain/events";
import { newId } from "@/lib/base/ids";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { accountWithKey, fixturePasswordHash, operatorCtx } from "../support/fixtures";

const record = async (accountId: string) => {
  const { connection: db } = await database();
  return db.transaction((tx) => recordEvent(tx, { accountId, type: eventTypes.sold, data: { code: "X" }, now: new Date() }));
};

const storedFor = async (accountId: string) => {
  const { connection: db } = await database();
  return db.select().from(events).where(eq(events.accountId, accountId)).orderBy(events.seq);
};

describe("recordEvent", () => {
  it("records nothing for an account without API keys", async () => {
    const ctx = await operatorCtx();
    const account = await createAccount({ ctx, input: { email: `${newId("account")}@example.test`, passwordHash: fixturePasswordHash } });
    expect(await record(account.id)).toBeNull();
    expect(await storedFor(account.id)).toEqual([]);
  });

  it("records nothing once the account's only key is revoked", async () => {
    const { account, keyId } = await accountWithKey();
    await revokeAnyKey({ ctx: await operatorCtx(), input: { id: keyId } });
    expect(await record(account.id)).toBeNull();
    expect(await storedFor(account.id)).toEqual([]);
  });

  it("still records for an account whose key has expired, so a renewed key finds the events in between", async () => {
    const { account, keyId } = await accountWithKey();
    const { connection: db } = await database();
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, keyId));
    expect(await record(account.id)).toMatchObject({ type: "listing.sold" });
  });

  it("returns the stored event in the webhook body form", async () => {
    const { account } = await accountWithKey();
    const now = new Date("2026-11-21T08:30:00.000Z");
    const { connection: db } = await database();
    const event = await db.transaction((tx) => recordEvent(tx, { accountId: account.id, type: eventTypes.paused, data: { a: 1 }, now }));
    const [row] = await storedFor(account.id);
    expect(event).toEqual({ id: eventId(row.seq), type: "listing.paused", created_at: "2026-11-21T08:30:00.000Z", data: { a: 1 } });
  });

  it("leaves no event when the transaction of the state change fails", async () => {
    const { account } = await accountWithKey();
    const { connection: db } = await database();
    await expect(
      db.transaction(async (tx) => {
        await recordEvent(tx, { accountId: account.id, type: eventTypes.sold, data: {}, now: new Date() });
        throw new Error("forced failure after the change");
      }),
    ).rejects.toThrow("forced failure");
    expect(await storedFor(account.id)).toEqual([]);
  });

  it("commits one account's events in seq order: a later writer waits for the earlier one's commit", async () => {
    const { account } = await accountWithKey();
    const database_ = await database();
    const { connection: db, driver } = database_;
    let recordedA!: () => void;
    const aRecorded = new Promise<void>((resolve) => (recordedA = resolve));
    let commitA!: () => void;
    const aMayCommit = new Promise<void>((resolve) => (commitA = resolve));
    const now = new Date();

    const a = db.transaction(async (tx) => {
      const event = await recordEvent(tx, { accountId: account.id, type: eventTypes.paused, data: { writer: "a" }, now });
      recordedA();
      await aMayCommit;
      return event!;
    });
    await aRecorded;
    const b = db.transaction((tx) => recordEvent(tx, { accountId: account.id, type: eventTypes.reactivated, data: { writer: "b" }, now }));

    if (driver === "postgres") {
      // B is blocked on the account's lock, before drawing its seq: a reader sees neither event yet.
      const waiting = sql`select 1 from pg_locks where locktype = 'advisory' and not granted
        and objsubid = 2 and objid::bigint = (hashtext(${account.id})::bigint & 4294967295)`;
      while ((await database_.rows(waiting)).length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const ctx = await operatorCtx();
      expect((await listEvents({ ctx, input: { accountId: account.id, limit: 10 } })).data).toEqual([]);
    }
    commitA();
    const [eventA, eventB] = await Promise.all([a, b]);
    expect(parseEventId(eventB!.id)).toBeGreaterThan(parseEventId(eventA.id));
    const listed = await listEvents({ ctx: await operatorCtx(), input: { accountId: account.id, limit: 10 } });
    expect(listed.data.map((event) => event.data.writer)).toEqual(["a", "b"]);
  });
});

describe("event ids", () => {
  it("parse back to their seq and sort like it", () => {
    const seqs = [1, 35, 36, 1295, 1_000_000, 36 ** 10 - 1];
    const ids = seqs.map(eventId);
    expect(ids.map(parseEventId)).toEqual(seqs);
    expect([...ids].reverse().sort()).toEqual(ids);
    expect(eventId(36)).toBe("evt_0000000010");
  });

  it("refuse seqs without an id and strings that are not ids", () => {
    expect(() => eventId(36 ** 10)).toThrow(RangeError);
    expect(() => eventId(-1)).toThrow(RangeError);
    expect(() => parseEventId("evt_12")).toThrow(RangeError);
  });
});

describe("listingEventData", () => {
  it("carries code, external_ref, status and the public url, then the type's fields", () => {
    const data = listingEventData({ code: "L1", externalRef: "crm-1", status: "hidden" }, { by: "moderation" });
    expect(data).toEqual({
      code: "L1",
      external_ref: "crm-1",
      status: "hidden",
      url: "http://localhost:3000/listings/L1",
      by: "moderation",
    });
    expect(listingEventData({ code: "L2", externalRef: null, status: "active" })).toEqual({
      code: "L2",
      external_ref: null,
      status: "active",
      url: "http://localhost:3000/listings/L2",
    });
  });

  it("names the nine event types of release 1.0.0 and import.completed, added since", () => {
    expect(Object.values(eventTypes).sort()).toEqual([
      "import.completed",
      "listing.edited_in_portal",
      "listing.paused",
      "listing.published",
      "listing.reactivated",
      "listing.rejected",
      "listing.sold",
      "listing.withdrawn",
      "media.failed",
      "webhook.test",
    ]);
  });
});
