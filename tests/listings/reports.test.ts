import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as catalogListing, DELETE } from "@/app/api/v1/listings/[code]/route";
import { database } from "@/db";
import { listingReports, listings } from "@/db/schema";
import { closeReport, listOpenReports, reportListing, reportRule } from "@/lib/domain/listings/reports";
import { withFrozenClock } from "../support/clock";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { activeListing, createListing, moderate } from "../support/listings";

const remove = (key: string, code: string) => call(DELETE, { path: `/listings/${code}`, method: "DELETE", key, params: { code } });

describe("listing reports", () => {
  it("an open report refuses deletion with 409; once moderation closes it the owner deletes (204)", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const ctx = await operatorCtx();
    const report = await reportListing({ ctx, input: { code: listing.code, reason: "Apartamentul a fost deja vândut." } });
    expect(report).toMatchObject({
      id: expect.stringMatching(/^rpt_/),
      listingCode: listing.code,
      status: "open",
      reporterEmail: null,
      closedAt: null,
    });

    const refused = await remove(key, listing.code);
    expect(refused.status).toBe(409);
    // The account speaks Romanian: the reason's text comes from the catalogue, no longer an English sentence.
    expect(refused.json).toMatchObject({
      code: "listing_action_refused",
      reason: "open_reports",
      detail: expect.stringContaining("sesizări deschise"),
    });

    const closed = await closeReport({ ctx, input: { id: report.id } });
    expect(closed).toMatchObject({ id: report.id, status: "closed", closedAt: ctx.now });
    expect((await remove(key, listing.code)).status).toBe(204);
    expect((await call(catalogListing, { path: `/listings/${listing.code}`, key, params: { code: listing.code } })).status).toBe(404);
  });

  it("every open report blocks deletion until the last is closed", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const ctx = await operatorCtx();
    const first = await reportListing({ ctx, input: { code: listing.code, reason: "Preț înșelător", reporterEmail: "ana@example.com" } });
    const later = { ...ctx, now: new Date(ctx.now.getTime() + 60_000) };
    const second = await reportListing({ ctx: later, input: { code: listing.code, reason: "Poze de la alt imobil" } });
    expect((await listOpenReports({ ctx, input: { code: listing.code } })).map((report) => report.id)).toEqual([first.id, second.id]);
    await closeReport({ ctx, input: { id: first.id } });
    expect((await remove(key, listing.code)).status).toBe(409);
    await closeReport({ ctx, input: { id: second.id } });
    expect((await remove(key, listing.code)).status).toBe(204);
  });

  it("only a public (active) listing can be reported; anything else is not_found and nothing is written", async () => {
    const { key } = await accountWithKey();
    const ctx = await operatorCtx();
    const pending = await createListing(key);
    const hidden = await activeListing(key);
    await moderate(hidden.code, { decision: "hide" });
    const deleted = await activeListing(key);
    expect((await remove(key, deleted.code)).status).toBe(204);
    for (const code of [pending.code, hidden.code, deleted.code, "ABCDEFGH", "nope"]) {
      await expect(reportListing({ ctx, input: { code, reason: "Nu mai e disponibil" } }), code).rejects.toMatchObject({
        code: "not_found",
      });
    }
    const { connection: db } = await database();
    const written = await db
      .select({ id: listingReports.id })
      .from(listingReports)
      .innerJoin(listings, eq(listings.id, listingReports.listingId))
      .where(inArray(listings.code, [pending.code, hidden.code, deleted.code]));
    expect(written).toEqual([]);
  });

  it("refuses an empty reason and a malformed reporter e-mail", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    await expect(
      reportListing({ ctx: await operatorCtx(), input: { code: listing.code, reason: "  ", reporterEmail: "nope" } }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      errors: [
        { pointer: "/reason", code: "min" },
        { pointer: "/reporterEmail", code: "email" },
      ],
    });
  });

  it(`counts a client address's reports: past ${reportRule.limit} an hour it is refused with 429 too_many_requests, writing nothing`, async () => {
    await withFrozenClock(async () => {
      const { key } = await accountWithKey();
      const listing = await activeListing(key);
      const ctx = await operatorCtx();
      const address = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
      const report = () => reportListing({ ctx, input: { code: listing.code, reason: "Anunț duplicat.", address } });
      for (let n = 0; n < reportRule.limit; n++) await report();
      await expect(report()).rejects.toMatchObject({ code: "too_many_requests", params: { limit: reportRule.limit } });
      // Another address, and an operator's report (no address), are not counted with it.
      await reportListing({ ctx, input: { code: listing.code, reason: "Anunț duplicat.", address: "203.0.113.9" } });
      await reportListing({ ctx, input: { code: listing.code, reason: "Anunț duplicat." } });
      const { connection: db } = await database();
      const [row] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, listing.code));
      expect(await db.select().from(listingReports).where(eq(listingReports.listingId, row.id))).toHaveLength(reportRule.limit + 2);
    });
  });
});
