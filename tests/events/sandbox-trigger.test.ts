import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as unknownPath } from "@/app/api/v1/[...path]/route";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { GET as triggerGet, OPTIONS as triggerOptions, POST as trigger } from "@/app/api/v1/sandbox/events/route";
import { database } from "@/db";
import { listings, photos } from "@/db/schema";
import { eventDataSchemas, parseEventId, type EventBody } from "@/lib/domain/events";
import { createKey } from "@/lib/domain/keys/create-key";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { sandboxRejectionReason, triggerableEventTypes } from "@/lib/domain/listings/trigger-sandbox-event";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { resetConfig } from "@/lib/base/config";
import { newId } from "@/lib/base/ids";
import { ctxOf } from "../oauth/support";
import { accountWithKey, call, createdKeys, operatorCtx } from "../support/fixtures";
import { activeListing, createListing, moderate } from "../support/listings";
import { deliveriesOf, receiver } from "../webhooks/support";

const fire = (key: string | undefined, body: unknown) => call(trigger, { path: "/sandbox/events", method: "POST", key, body });
const events = async (key: string) => (await call(eventsRoute, { path: "/events?limit=500", key })).json!.data as EventBody[];
const read = async (key: string, code: string) =>
  (await call(accountListing, { path: `/account/listings/${code}`, key, params: { code } })).json!.data as Record<string, any>;

/** An account with a key and a webhook subscribed to every type the trigger fires. */
async function subscribed() {
  const owner = await accountWithKey();
  const webhook = await createWebhook({ ctx: await ctxOf(owner.account.id), input: { url: receiver, events: [...triggerableEventTypes] } });
  return { ...owner, webhook };
}

/** Runs `test` with APP_ENV=production, then puts the sandbox back. */
async function inProduction(test: () => Promise<void>) {
  process.env.APP_ENV = "production";
  resetConfig();
  try {
    await test();
  } finally {
    process.env.APP_ENV = "sandbox";
    resetConfig();
  }
}

describe("POST /sandbox/events", () => {
  it("fires each type with the data of its real event, listed by GET /events and queued for the subscribed webhook", async () => {
    const { key, webhook } = await subscribed();
    const listing = await activeListing(key);
    const before = await read(key, listing.code);
    const fired: EventBody[] = [];
    for (const type of triggerableEventTypes) {
      const res = await fire(key, { type, code: listing.code });
      expect(res.status, res.text).toBe(202);
      const event = res.json!.data as EventBody;
      expect(event).toMatchObject({ type, created_at: expect.any(String) });
      // Exactly the members of the type's webhook schema, no more.
      const schema = eventDataSchemas[type];
      expect(schema.safeParse(event.data).success, `${type}: ${JSON.stringify(event.data)}`).toBe(true);
      expect(
        Object.keys(event.data).every((member) => member in schema.shape),
        `${type} has no extra member`,
      ).toBe(true);
      expect(event.data).toMatchObject({ code: listing.code, external_ref: null, status: "active", url: before.url });
      fired.push(event);
    }
    const byType = Object.fromEntries(fired.map((event) => [event.type, event.data]));
    expect(byType["listing.rejected"]).toMatchObject({ reason: sandboxRejectionReason, rejection_codes: [rejectionCodes.codes[0]] });
    expect(byType["listing.withdrawn"]).toEqual(expect.objectContaining({ by: "moderation" }));
    expect(byType["listing.withdrawn"]).not.toHaveProperty("deleted");
    expect(byType["listing.edited_in_portal"]).toMatchObject({ etag: before.etag });
    expect(byType["media.failed"]).toEqual(expect.objectContaining({ count: 1, reason: "unprocessable" }));

    expect(await events(key)).toEqual([expect.objectContaining({ type: "listing.published" }), ...fired]);
    const deliveries = await deliveriesOf([webhook.id]);
    expect(deliveries.map((row) => row.eventSeq!).sort((a, b) => a - b)).toEqual(
      [...(await events(key))].map((event) => parseEventId(event.id)).sort((a, b) => a - b),
    );
    for (const row of deliveries) expect(row).toMatchObject({ status: "pending", attempts: 0 });
    // The listing itself has not changed.
    expect(await read(key, listing.code)).toEqual(before);
  });

  it("takes the listing's current state: its status, moderation's reason and codes, its failed photos", async () => {
    const { key } = await subscribed();
    const listing = await createListing(key);
    await moderate(listing.code, { decision: "reject", reason: "Price looks wrong", rejection_codes: ["misleading_price", "duplicate"] });
    const rejected = await fire(key, { type: "listing.rejected", code: listing.code });
    expect(rejected.json!.data.data).toMatchObject({
      status: "rejected",
      reason: "Price looks wrong",
      rejection_codes: ["misleading_price", "duplicate"],
    });

    const { connection: db } = await database();
    const [{ id: listingId }] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, listing.code));
    const failed = (position: number, failureReason: string, sourceUrl: string | null) => ({
      id: newId("photo"),
      listingId,
      position,
      sourceUrl,
      state: "failed" as const,
      failureReason,
    });
    await db
      .insert(photos)
      .values([
        failed(0, "download_failed", "https://photos.example/a.jpg"),
        failed(1, "unprocessable", "https://photos.example/b.jpg"),
        failed(2, "download_failed", "https://photos.example/c.jpg"),
      ]);
    const media = await fire(key, { type: "media.failed", code: listing.code });
    expect(media.json!.data.data).toEqual({
      code: listing.code,
      external_ref: null,
      status: "rejected",
      url: expect.any(String),
      count: 2,
      reason: "download_failed",
      urls: ["https://photos.example/a.jpg", "https://photos.example/c.jpg"],
    });
  });

  it("answers 422 at /type for an unknown or missing type and for webhook.test, and at /code for a missing or malformed code", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const pointerCodes = async (body: unknown) =>
      ((await fire(key, body)).json!.errors as { pointer: string; code: string }[]).map((e) => `${e.pointer} ${e.code}`);
    for (const type of ["listing.exploded", "webhook.test", 7]) {
      const res = await fire(key, { type, code: listing.code });
      expect(res.status).toBe(422);
    }
    expect(await pointerCodes({ type: "listing.exploded", code: listing.code })).toEqual(["/type in"]);
    // A missing type is not one of the allowed values either (zod's enum says so; the code is `in`).
    expect(await pointerCodes({ code: listing.code })).toEqual(["/type in"]);
    expect(await pointerCodes({ type: "listing.sold" })).toEqual(["/code required"]);
    expect(await pointerCodes({ type: "listing.sold", code: "abc" })).toEqual(["/code regex"]);
    expect(await pointerCodes({ type: "nope", code: 12 })).toEqual(["/type in", "/code string"]);
    // Worded in both catalogues.
    const ro = await call(trigger, { path: "/sandbox/events?locale=ro", method: "POST", key, body: { type: "x", code: listing.code } });
    const en = await call(trigger, { path: "/sandbox/events?locale=en", method: "POST", key, body: { type: "x", code: listing.code } });
    expect(en.json!.errors[0].detail).toMatch(/^Must be one of: listing\.published, /);
    expect(ro.json!.errors[0].detail).not.toBe(en.json!.errors[0].detail);
    expect(await events(key)).toEqual([]);
  });

  it("answers another account's listing with the same 404 as a missing one, and writes nothing", async () => {
    const owner = await subscribed();
    const stranger = await accountWithKey();
    const theirs = await createListing(owner.key);
    const foreign = await fire(stranger.key, { type: "listing.sold", code: theirs.code });
    const missing = await fire(stranger.key, { type: "listing.sold", code: "ZZZZZZZZ" });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual(missing.json);
    expect(await events(owner.key)).toEqual([]);
    expect(await events(stranger.key)).toEqual([]);
    expect(await deliveriesOf([owner.webhook.id])).toEqual([]);
  });

  it("needs a key (401) with listings:write (403)", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const none = await fire(undefined, { type: "listing.sold", code: listing.code });
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: "unauthenticated" });
    const reader = await accountWithKey({ permissions: ["listings:read", "media:write"] });
    const refused = await fire(reader.key, { type: "listing.sold", code: listing.code });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: "missing_ability" });
    expect(await events(key)).toEqual([]);
  });

  it("refuses with 409 events_need_key a colleague's listing whose account has no key, and fires on it once it has one", async () => {
    const agency = `Agency ${newId("agency")}`;
    const owner = await accountWithKey({ account: { agency, role: "owner" } });
    const agent = await accountWithKey({ account: { agency, role: "agent" } });
    const listing = await createListing(agent.key);
    await revokeKey({ ctx: await ctxOf(agent.account.id), input: { id: agent.keyId } });
    const refused = await fire(owner.key, { type: "listing.paused", code: listing.code });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "listing_action_refused", reason: "events_need_key" });

    const again = await createKey({
      ctx: await operatorCtx(),
      input: { accountId: agent.account.id, name: "again", permissions: ["listings:read"], days: 30 },
    });
    createdKeys.push(again.key);
    const fired = await fire(owner.key, { type: "listing.paused", code: listing.code });
    expect(fired.status).toBe(202);
    // The event is the listing's account's, as a real one: not in the manager's own events.
    expect(await events(owner.key)).toEqual([]);
  });

  it("refuses hostile bodies as every endpoint does, writing nothing", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const send = (rawBody: string, contentType = "application/json") =>
      call(trigger, { path: "/sandbox/events", method: "POST", key, rawBody, headers: { "content-type": contentType } });
    expect((await send("{not json")).json).toMatchObject({ status: 400, code: "malformed_json" });
    expect((await send(JSON.stringify({ type: "listing.sold", code: listing.code }), "text/plain")).json).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    expect((await send(JSON.stringify({ type: "listing.sold", code: listing.code, pad: "x".repeat(1_100_000) }))).json).toMatchObject({
      status: 413,
      code: "payload_too_large",
    });
    expect((await send(`{"type":"listing.sold","code":${"[".repeat(1000)}${"]".repeat(1000)}}`)).json).toMatchObject({
      status: 400,
      code: "nesting_too_deep",
    });
    expect(await events(key)).toEqual([]);
  });

  it("answers 404 in production exactly as an unknown path does, before the key, for every method", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    await inProduction(async () => {
      const unknown = await call(unknownPath, { path: "/sandbox/nothing-here", method: "POST", body: {} });
      for (const sent of [undefined, key]) {
        const res = await fire(sent, { type: "listing.sold", code: listing.code });
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("www-authenticate")).toBeNull();
        expect(res.json).toEqual(unknown.json);
      }
      const get = await call(triggerGet, { path: "/sandbox/events", key });
      expect(get.status).toBe(404);
      expect(get.json).toEqual(unknown.json);
      const options = await call(triggerOptions, { path: "/sandbox/events", method: "OPTIONS" });
      expect(options.status).toBe(404);
      expect(options.json).toEqual(unknown.json);
    });
    expect(await events(key)).toEqual([]);
  });
});
