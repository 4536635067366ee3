import { describe, expect, it } from "vitest";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { POST as markSold } from "@/app/api/v1/listings/[code]/sold/route";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing, moderate } from "../support/listings";

const patch = (key: string | undefined, code: string, body: unknown, headers: Record<string, string> = {}) =>
  call(PATCH, {
    path: `/listings/${code}`,
    method: "PATCH",
    key,
    body,
    params: { code },
    headers: { "content-type": "application/merge-patch+json", ...headers },
  });

describe("PATCH /listings/{code} – happy", () => {
  it("applies an edit of an unpublished listing directly (200) with a new ETag", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const res = await patch(key, listing.code, { title: "Apartament 3 camere lângă parc", bedrooms: null });
    expect(res.status).toBe(200);
    expect(res.json!.data.title).toBe("Apartament 3 camere lângă parc");
    expect(res.json!.data.facts.bedrooms).toBeUndefined();
    expect(res.json!.data.status).toBe("pending");
    expect(res.headers.get("etag")).toBe(res.json!.data.etag);
    expect(res.json!.data.etag).not.toBe(listing.etag);
  });

  it("holds an edit of an active listing for moderation (202, edit_pending) and keeps the live version", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const res = await patch(key, listing.code, { price: 179000 });
    expect(res.status).toBe(202);
    expect(res.json!.data).toMatchObject({ status: "active", price: 185000, moderation: { edit_pending: true } });
    await moderate(listing.code, { decision: "approve" });
    const read = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(read.json!.data).toMatchObject({ status: "active", price: 179000, moderation: { edit_pending: false } });
  });

  it("accepts application/json too, and a patch that changes nothing writes nothing", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const res = await patch(key, listing.code, { rooms: 3 }, { "content-type": "application/json" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-unchanged")).toBe("true");
    expect(res.json!.data.etag).toBe(listing.etag);
  });

  it("accepts a matching If-Match, quoted, unquoted, in a list or *", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const first = await patch(key, listing.code, { rooms: 4 }, { "if-match": listing.etag });
    expect(first.status).toBe(200);
    const second = await patch(key, listing.code, { rooms: 3 }, { "if-match": `"nope", ${first.json!.data.etag.replace(/"/g, "")}` });
    expect(second.status).toBe(200);
    expect((await patch(key, listing.code, { rooms: 2 }, { "if-match": "*" })).status).toBe(200);
  });
});

describe("PATCH /listings/{code} – errors", () => {
  it("answers 412 for an old If-Match and a weak tag, and writes nothing", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    await patch(key, listing.code, { rooms: 4 });
    const stale = await patch(key, listing.code, { rooms: 2 }, { "if-match": listing.etag });
    expect(stale.status).toBe(412);
    expect(stale.json!.code).toBe("listing_changed_meanwhile");
    const current = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(current.json!.data.facts.rooms).toBe(4);
    expect((await patch(key, listing.code, { rooms: 2 }, { "if-match": `W/${current.json!.data.etag}` })).status).toBe(412);
  });

  it("refuses changing type or transaction with invalid_value", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const res = await patch(key, listing.code, { transaction: "rent", type: "house" });
    expect(res.status).toBe(422);
    const found = res.json!.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`);
    expect(found).toEqual(["/type invalid_value", "/transaction invalid_value"]);
  });

  it("refuses null for a non-nullable field with required", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const res = await patch(key, listing.code, { title: null });
    expect(res.status).toBe(422);
    expect(res.json!.errors).toEqual([expect.objectContaining({ pointer: "/title", code: "required" })]);
  });

  it("answers 415 for another media type and refuses edits of sold and hidden listings with 409 not_editable", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    expect((await patch(key, listing.code, { rooms: 2 }, { "content-type": "text/plain" })).status).toBe(415);
    const sold = await call(markSold, { path: `/listings/${listing.code}/sold`, method: "POST", key, params: { code: listing.code } });
    expect(sold.json!.data.status).toBe("sold");
    const soldEdit = await patch(key, listing.code, { rooms: 2 });
    expect(soldEdit.status).toBe(409);
    expect(soldEdit.json).toMatchObject({ code: "listing_action_refused", reason: "not_editable" });
    await moderate(listing.code, { decision: "hide" });
    const hiddenEdit = await patch(key, listing.code, { rooms: 2 });
    expect(hiddenEdit.status).toBe(409);
    expect(hiddenEdit.json).toMatchObject({ code: "listing_action_refused", reason: "not_editable" });
  });
});

describe("PATCH /listings/{code} – security", () => {
  it("answers another account's listing exactly like a missing one, before checking If-Match", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const listing = await createListing(owner.key);
    const foreign = await patch(stranger.key, listing.code, { rooms: 2 }, { "if-match": '"old"' });
    const missing = await patch(stranger.key, "ZZZZZZZZ", { rooms: 2 });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.json).toEqual(missing.json);
    expect((await patch(stranger.key, "bad-code", { rooms: 2 })).status).toBe(404);
  });

  it("needs a key with listings:write", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    expect((await patch(undefined, listing.code, { rooms: 2 })).status).toBe(401);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    expect((await patch(reader.key, listing.code, { rooms: 2 })).status).toBe(403);
  });
});
