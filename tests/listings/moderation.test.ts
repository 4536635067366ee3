import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { POST as simulate } from "@/app/api/v1/sandbox/listings/[code]/moderation/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { resetConfig } from "@/lib/base/config";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { activeListing, createListing, moderate } from "../support/listings";

const decide = (key: string | undefined, code: string, body: unknown) =>
  call(simulate, { path: `/sandbox/listings/${code}/moderation`, method: "POST", key, body, params: { code } });
const events = async (key: string) =>
  (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: Record<string, unknown> }[];

describe("POST /sandbox/listings/{code}/moderation", () => {
  it("approves (listing.published), rejects with reason and codes (listing.rejected), hides (listing.withdrawn)", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const approved = await decide(key, listing.code, { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(approved.json!.data).toMatchObject({ status: "active", published_at: expect.any(String) });
    const rejected = await decide(key, listing.code, {
      decision: "reject",
      reason: "Price looks wrong",
      rejection_codes: ["misleading_price"],
    });
    expect(rejected.json!.data).toMatchObject({
      status: "rejected",
      moderation: { rejection_reason: "Price looks wrong", rejection_codes: ["misleading_price"] },
    });
    expect((await decide(key, listing.code, { decision: "hide" })).json!.data.status).toBe("hidden");
    const seen = await events(key);
    expect(seen.map((e) => e.type)).toEqual(["listing.published", "listing.rejected", "listing.withdrawn"]);
    expect(seen[1].data).toMatchObject({ status: "rejected", reason: "Price looks wrong", rejection_codes: ["misleading_price"] });
    expect(seen[2].data).toMatchObject({ status: "hidden", by: "moderation" });
  });

  it("discards a waiting edit on rejection, and a rejected listing edited goes back to pending", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    await call(PATCH, { path: `/listings/${listing.code}`, method: "PATCH", key, body: { price: 1000 }, params: { code: listing.code } });
    await moderate(listing.code, { decision: "reject", reason: "Price", rejection_codes: ["misleading_price"] });
    const read = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(read.json!.data).toMatchObject({ status: "rejected", price: 185000, moderation: { edit_pending: false } });
    const edited = await call(PATCH, {
      path: `/listings/${listing.code}`,
      method: "PATCH",
      key,
      body: { price: 184000 },
      params: { code: listing.code },
    });
    expect(edited.status).toBe(200);
    expect(edited.json!.data).toMatchObject({
      status: "pending",
      price: 184000,
      moderation: { rejection_reason: null, rejection_codes: [] },
    });
  });

  it("refuses an invalid decision with 422 and approving an active listing without an edit with 409", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const invalid = await decide(key, listing.code, { decision: "reject", rejection_codes: ["nope"] });
    expect(invalid.status).toBe(422);
    expect((await decide(key, listing.code, { decision: "approve" })).status).toBe(409);
  });

  it("is 404 for another account's listing, needs a key with listings:write, and does not exist in production", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const listing = await createListing(owner.key);
    expect((await decide(stranger.key, listing.code, { decision: "approve" })).status).toBe(404);
    expect((await decide(undefined, listing.code, { decision: "approve" })).status).toBe(401);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    expect((await decide(reader.key, listing.code, { decision: "approve" })).status).toBe(403);
    process.env.APP_ENV = "production";
    resetConfig();
    try {
      const prod = await accountWithKey();
      const prodListing = await createListing(prod.key);
      expect((await decide(prod.key, prodListing.code, { decision: "approve" })).status).toBe(404);
    } finally {
      process.env.APP_ENV = "sandbox";
      resetConfig();
    }
  });
});

describe("unconfirmed listings", () => {
  it("become unconfirmed after 30 days without confirmation, and an API edit confirms them (listing.published)", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const { connection: db } = await database();
    await db
      .update(listings)
      .set({ confirmedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(listings.code, listing.code));
    const ctx = await operatorCtx();
    expect((await unconfirmStaleListings({ ctx })).unconfirmed).toBeGreaterThanOrEqual(1);
    const read = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(read.json!.data.status).toBe("unconfirmed");
    const edited = await call(PATCH, { path: `/listings/${listing.code}`, method: "PATCH", key, body: {}, params: { code: listing.code } });
    expect(edited.status).toBe(200);
    expect(edited.json!.data.status).toBe("active");
    expect((await events(key)).map((e) => e.type)).toEqual(["listing.published", "listing.published"]);
  });
});
