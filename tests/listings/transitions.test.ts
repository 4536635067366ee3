import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as deleteRoute } from "@/app/api/v1/listings/[code]/route";
import { POST as pause } from "@/app/api/v1/listings/[code]/pause/route";
import { POST as resume } from "@/app/api/v1/listings/[code]/resume/route";
import { POST as sold } from "@/app/api/v1/listings/[code]/sold/route";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { database } from "@/db";
import { listingReports, listings } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing } from "../support/listings";

const act = (route: typeof pause, key: string | undefined, code: string, name: string) =>
  call(route, { path: `/listings/${code}/${name}`, method: "POST", key, params: { code } });

async function eventsOf(key: string) {
  const res = await call(eventsRoute, { path: "/events", key });
  return res.json!.data as { type: string; data: Record<string, unknown> }[];
}

describe("POST /listings/{code}/pause|resume|sold – happy", () => {
  it("pauses, resumes and sells with one event each", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key, undefined);
    const paused = await act(pause, key, listing.code, "pause");
    expect(paused.status).toBe(200);
    expect(paused.json!.data.status).toBe("paused");
    expect(paused.headers.get("etag")).toBe(paused.json!.data.etag);
    expect((await act(resume, key, listing.code, "resume")).json!.data.status).toBe("active");
    expect((await act(sold, key, listing.code, "sold")).json!.data.status).toBe("sold");
    const types = (await eventsOf(key)).map((e) => `${e.type}:${e.data.status}`);
    expect(types).toEqual(["listing.published:active", "listing.paused:paused", "listing.reactivated:active", "listing.sold:sold"]);
  });

  it("sells a paused listing, and repeating pause or sold changes nothing", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    await act(pause, key, listing.code, "pause");
    const again = await act(pause, key, listing.code, "pause");
    expect(again.status).toBe(200);
    expect((await act(sold, key, listing.code, "sold")).json!.data.status).toBe("sold");
    expect((await act(sold, key, listing.code, "sold")).status).toBe(200);
    expect((await eventsOf(key)).filter((e) => e.type === "listing.paused")).toHaveLength(1);
    expect((await eventsOf(key)).filter((e) => e.type === "listing.sold")).toHaveLength(1);
  });
});

describe("POST /listings/{code}/pause|resume|sold – errors", () => {
  it("answers resume of a listing that is not paused with 404", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const res = await act(resume, key, listing.code, "resume");
    expect(res.status).toBe(404);
    expect(res.json!.code).toBe("not_found");
  });

  it("refuses pause and sold of a pending listing with 409 listing_action_refused", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    for (const [route, name] of [
      [pause, "pause"],
      [sold, "sold"],
    ] as const) {
      const res = await act(route, key, listing.code, name);
      expect(res.status).toBe(409);
      expect(res.json!.code).toBe("listing_action_refused");
    }
  });
});

describe("DELETE /listings/{code}", () => {
  it("deletes (204), records listing.withdrawn by owner, and the listing is gone everywhere", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key, undefined);
    const res = await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key, params: { code: listing.code } });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const read = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(read.status).toBe(404);
    const withdrawn = (await eventsOf(key)).find((e) => e.type === "listing.withdrawn");
    expect(withdrawn?.data).toMatchObject({ code: listing.code, by: "owner", deleted: true });
    expect(
      (await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key, params: { code: listing.code } })).status,
    ).toBe(404);
  });

  it("refuses deletion while a report is open (409), allows it once closed", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const { connection: db } = await database();
    const [row] = await db.select().from(listings).where(eq(listings.code, listing.code));
    const reportId = newId("report");
    await db.insert(listingReports).values({ id: reportId, listingId: row.id, reason: "Already sold" });
    const refused = await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key, params: { code: listing.code } });
    expect(refused.status).toBe(409);
    expect(refused.json!.code).toBe("listing_action_refused");
    await db
      .update(listingReports)
      .set({ status: "closed" })
      .where(and(eq(listingReports.id, reportId)));
    expect(
      (await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key, params: { code: listing.code } })).status,
    ).toBe(204);
  });
});

describe("listing actions – security", () => {
  it("answers another account's listing like a missing one, and needs listings:write", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const listing = await activeListing(owner.key);
    for (const [route, name] of [
      [pause, "pause"],
      [resume, "resume"],
      [sold, "sold"],
    ] as const) {
      expect((await act(route, stranger.key, listing.code, name)).status).toBe(404);
      expect((await act(route, undefined, listing.code, name)).status).toBe(401);
    }
    expect(
      (await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key: stranger.key, params: { code: listing.code } }))
        .status,
    ).toBe(404);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    expect((await act(pause, reader.key, listing.code, "pause")).status).toBe(403);
    expect(
      (await call(deleteRoute, { path: `/listings/${listing.code}`, method: "DELETE", key: reader.key, params: { code: listing.code } }))
        .status,
    ).toBe(403);
    const read = await call(accountListing, { path: `/account/listings/${listing.code}`, key: owner.key, params: { code: listing.code } });
    expect(read.json!.data.status).toBe("active");
  });
});
