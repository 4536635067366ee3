import { describe, expect, it } from "vitest";
import { GET as accountListings } from "@/app/api/v1/account/listings/route";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { GET as accountListingByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { newId } from "@/lib/base/ids";
import { accountWithKey, call } from "../support/fixtures";
import { createListing, moderate, validApartment } from "../support/listings";

const list = (key: string | undefined, query = "") => call(accountListings, { path: `/account/listings${query}`, key });

describe("GET /account/listings – happy", () => {
  it("lists the caller's listings newest change first in the item shape, paging with cursors", async () => {
    const { key } = await accountWithKey();
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await createListing(key)).code);
    // Touching the oldest makes it the most recently modified.
    await call(PATCH, { path: `/listings/${codes[0]}`, method: "PATCH", key, body: { rooms: 4 }, params: { code: codes[0] } });
    const first = await list(key, "?per_page=2");
    expect(first.status).toBe(200);
    expect(first.json!.data.map((l: { code: string }) => l.code)).toEqual([codes[0], codes[4]]);
    expect(Object.keys(first.json!.data[0])).not.toContain("status");
    expect(Object.keys(first.json!.data[0]).at(-1)).toBe("attribution");
    expect(first.json!.meta).toMatchObject({ per_page: 2, prev_cursor: null, path: "http://localhost:3000/api/v1/account/listings" });
    expect(first.json!.links.prev).toBeNull();
    const second = await list(key, `?per_page=2&cursor=${first.json!.meta.next_cursor}`);
    expect(second.json!.data.map((l: { code: string }) => l.code)).toEqual([codes[3], codes[2]]);
    const third = await call(accountListings, {
      path: new URL(second.json!.links.next).pathname.replace("/api/v1", "") + new URL(second.json!.links.next).search,
      key,
    });
    expect(third.json!.data.map((l: { code: string }) => l.code)).toEqual([codes[1]]);
    expect(third.json!.meta.next_cursor).toBeNull();
    const back = await list(key, `?per_page=2&cursor=${third.json!.meta.prev_cursor}`);
    expect(back.json!.data.map((l: { code: string }) => l.code)).toEqual([codes[3], codes[2]]);
    const last = await call(accountListings, {
      path: new URL(first.json!.links.last).pathname.replace("/api/v1", "") + new URL(first.json!.links.last).search,
      key,
    });
    expect(last.json!.data.map((l: { code: string }) => l.code)).toEqual([codes[2], codes[1]]);
  });

  it("filters by status and returns only the chosen fields", async () => {
    const { key } = await accountWithKey();
    const pending = await createListing(key, undefined);
    const active = await createListing(key, undefined);
    await moderate(active.code, { decision: "approve" });
    const res = await list(key, "?status=active&fields=code,external_ref,etag,updated_at");
    expect(res.json!.data).toHaveLength(1);
    expect(Object.keys(res.json!.data[0]).sort()).toEqual(["code", "etag", "external_ref", "updated_at"]);
    expect(res.json!.data[0].code).toBe(active.code);
    expect((await list(key, "?status=pending")).json!.data.map((l: { code: string }) => l.code)).toEqual([pending.code]);
  });

  it("shows agency owners and admins their colleagues' listings, agents only their own", async () => {
    const agency = `Agency ${newId("agency")}`;
    const owner = await accountWithKey({ account: { agency, role: "owner" } });
    const admin = await accountWithKey({ account: { agency, role: "admin" } });
    const agent = await accountWithKey({ account: { agency, role: "agent" } });
    const byAgent = await createListing(agent.key);
    const byOwner = await createListing(owner.key);
    const codes = async (key: string) => (await list(key)).json!.data.map((l: { code: string }) => l.code).sort();
    expect(await codes(owner.key)).toEqual([byAgent.code, byOwner.code].sort());
    expect(await codes(admin.key)).toEqual([byAgent.code, byOwner.code].sort());
    expect(await codes(agent.key)).toEqual([byAgent.code]);
    const colleague = await call(accountListing, {
      path: `/account/listings/${byAgent.code}`,
      key: admin.key,
      params: { code: byAgent.code },
    });
    expect(colleague.status).toBe(200);
    expect(colleague.json!.data.attribution.lister).toBe(agency);
    expect(
      (await call(accountListing, { path: `/account/listings/${byOwner.code}`, key: agent.key, params: { code: byOwner.code } })).status,
    ).toBe(404);
  });
});

describe("GET /account/listings – errors", () => {
  it.each([
    ["?per_page=0", "/per_page"],
    ["?per_page=101", "/per_page"],
    ["?status=gone", "/status"],
    ["?fields=code,secret", "/fields"],
    ["?cursor=not-a-cursor", "/cursor"],
    ["?locale=fr", "/locale"],
  ])("refuses %s with 422 pointing at the parameter", async (query, pointer) => {
    const { key } = await accountWithKey();
    const res = await list(key, query);
    expect(res.status).toBe(422);
    expect(res.json!.errors[0]).toMatchObject({ pointer, in: "query" });
  });
});

describe("GET /account/listings/{code} and /ref/{ref}", () => {
  it("reads one listing with status, moderation, media and etag; by ref too", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key, validApartment({ external_ref: "crm/77:a" }));
    const byCode = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(byCode.status).toBe(200);
    expect(byCode.headers.get("etag")).toBe(byCode.json!.data.etag);
    expect(byCode.json!.warnings).toEqual([]);
    // Next.js hands route handlers their path parameters decoded.
    const byRef = await call(accountListingByRef, { path: "/account/listings/ref/crm%2F77%3Aa", key, params: { ref: "crm/77:a" } });
    expect(byRef.status).toBe(200);
    expect(byRef.json!.data).toEqual(byCode.json!.data);
    expect((await call(accountListingByRef, { path: "/account/listings/ref/nope", key, params: { ref: "nope" } })).status).toBe(404);
  });

  it("answers another account's listing exactly like a missing one, and needs listings:read", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const listing = await createListing(owner.key, validApartment({ external_ref: "r-1" }));
    const foreign = await call(accountListing, {
      path: `/account/listings/${listing.code}`,
      key: stranger.key,
      params: { code: listing.code },
    });
    const missing = await call(accountListing, { path: "/account/listings/ZZZZZZZZ", key: stranger.key, params: { code: "ZZZZZZZZ" } });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.json }).toEqual({ ...missing.json });
    expect((await call(accountListingByRef, { path: "/account/listings/ref/r-1", key: stranger.key, params: { ref: "r-1" } })).status).toBe(
      404,
    );
    expect((await list(stranger.key)).json!.data).toEqual([]);
    expect((await list(undefined)).status).toBe(401);
    const writer = await accountWithKey({ permissions: ["listings:write"] });
    expect((await list(writer.key)).status).toBe(403);
    expect(
      (await call(accountListing, { path: `/account/listings/${listing.code}`, key: writer.key, params: { code: listing.code } })).status,
    ).toBe(403);
  });
});
