import { describe, expect, it } from "vitest";
import { DELETE } from "@/app/api/v1/listings/[code]/route";
import { database } from "@/db";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { closeReport, countOpenReports, listOpenReports, reportListing } from "@/lib/domain/listings/reports";
import { getListingForReview } from "@/lib/domain/listings/review";
import { moderatorContext } from "@/lib/base/context";
import { renderProblem } from "@/lib/base/problem";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { activeListing, createListing } from "../support/listings";
import { editPublished, eventsOf, newModerator } from "./support";
import { onPostgresRun } from "../support/engine";

const remove = (key: string, code: string) => call(DELETE, { path: `/listings/${code}`, method: "DELETE", key, params: { code } });

describe("a moderator's decisions", () => {
  it("approve, reject with reason and codes, and hide produce listing.published, listing.rejected and listing.withdrawn", async () => {
    const { key } = await accountWithKey();
    const { ctx } = await newModerator();
    const listing = await createListing(key);

    const approved = await moderateListing({ ctx, input: { code: listing.code, decision: { decision: "approve" } } });
    expect(approved.status).toBe("active");
    await moderateListing({
      ctx,
      input: {
        code: listing.code,
        decision: { decision: "reject", reason: "Prețul nu corespunde", rejection_codes: ["misleading_price", "poor_photos"] },
      },
    });
    await moderateListing({ ctx, input: { code: listing.code, decision: { decision: "hide" } } });

    const events = await eventsOf(key);
    expect(events.map((event) => event.type)).toEqual(["listing.published", "listing.rejected", "listing.withdrawn"]);
    expect(events[1].data).toMatchObject({ reason: "Prețul nu corespunde", rejection_codes: ["misleading_price", "poor_photos"] });
    expect(events[2].data).toMatchObject({ status: "hidden", by: "moderation" });
  });

  it("approving a pending edit applies it; rejecting one discards it", async () => {
    const { key } = await accountWithKey();
    const { ctx } = await newModerator();
    const first = await activeListing(key);
    await editPublished(key, first.code, { price: 179000 });
    await moderateListing({ ctx, input: { code: first.code, decision: { decision: "approve" } } });
    const applied = await getListingForReview({ ctx, input: { code: first.code } });
    expect(applied).toMatchObject({ status: "active", pendingFields: null, fields: expect.objectContaining({ price: 179000 }) });

    const second = await activeListing(key);
    await editPublished(key, second.code, { price: 1000 });
    await moderateListing({
      ctx,
      input: { code: second.code, decision: { decision: "reject", reason: "Preț greșit", rejection_codes: ["misleading_price"] } },
    });
    const rejected = await getListingForReview({ ctx, input: { code: second.code } });
    expect(rejected).toMatchObject({ status: "rejected", pendingFields: null, rejectionCodes: ["misleading_price"] });
  });

  it("refuses a decision on the moderator's own listing and on their agency's, with a stable code and a message in ro and en", async () => {
    const agency = `Agenția ${Date.now()}`;
    const moderator = await newModerator({ agency, role: "admin" });
    const colleague = await accountWithKey({ account: { agency, role: "agent" } });
    const own = await createListing(moderator.key);
    const agencys = await createListing(colleague.key);
    for (const code of [own.code, agencys.code]) {
      for (const decision of [
        { decision: "approve" },
        { decision: "hide" },
        { decision: "reject", reason: "x", rejection_codes: ["duplicate"] },
      ]) {
        const refusal = await moderateListing({ ctx: moderator.ctx, input: { code, decision } }).catch((error: unknown) => error);
        expect(refusal, `${code} ${decision.decision}`).toMatchObject({
          code: "listing_action_refused",
          params: { reason: "own_listing" },
        });
      }
    }
    const refusal = await moderateListing({ ctx: moderator.ctx, input: { code: own.code, decision: { decision: "approve" } } }).catch(
      (error: unknown) => error as Parameters<typeof renderProblem>[0],
    );
    expect(renderProblem(refusal, "en", "").detail).toContain("cannot decide on their own listings");
    expect(renderProblem(refusal, "ro", "").detail).toContain("propriilor anunțuri");
    // Nothing was written: still waiting, no event for the owners.
    expect((await getListingForReview({ ctx: moderator.ctx, input: { code: own.code } })).status).toBe("pending");
    expect(await eventsOf(moderator.key)).toEqual([]);
    expect(await eventsOf(colleague.key)).toEqual([]);
    // Another moderator decides.
    const other = await newModerator();
    await moderateListing({ ctx: other.ctx, input: { code: own.code, decision: { decision: "approve" } } });
    expect((await eventsOf(moderator.key)).map((event) => event.type)).toEqual(["listing.published"]);
  });

  it("refuses an account that is not (or no longer) a moderator", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const plain = await accountWithKey();
    const ctx = moderatorContext(await database(), { accountId: plain.account.id });
    await expect(moderateListing({ ctx, input: { code: listing.code, decision: { decision: "approve" } } })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await eventsOf(key)).toEqual([]);
  });
});

describe("reports on the moderation desk", () => {
  it("lists open reports with their listing; closing one lets the owner delete the listing", async () => {
    const { key } = await accountWithKey();
    const { ctx } = await newModerator();
    const listing = await activeListing(key);
    const report = await reportListing({
      ctx: await operatorCtx(),
      input: { code: listing.code, reason: "Apartamentul a fost deja vândut.", reporterEmail: "Ana@Example.com" },
    });
    const open = await listOpenReports({ ctx, input: {} });
    expect(open.find((item) => item.id === report.id)).toMatchObject({
      listingCode: listing.code,
      listingTitle: "Apartament 3 camere Floreasca",
      reason: "Apartamentul a fost deja vândut.",
      reporterEmail: "ana@example.com",
      own: false,
    });
    // Exact on this file's own embedded database; on PostgreSQL other files report listings meanwhile.
    if (!onPostgresRun) expect(await countOpenReports({ ctx })).toBe(open.length);
    else expect(await countOpenReports({ ctx })).toBeGreaterThan(0);
    expect((await getListingForReview({ ctx, input: { code: listing.code } })).openReports).toBe(1);
    expect((await remove(key, listing.code)).status).toBe(409);

    await closeReport({ ctx, input: { id: report.id } });
    expect((await getListingForReview({ ctx, input: { code: listing.code } })).openReports).toBe(0);
    expect((await remove(key, listing.code)).status).toBe(204);
  });

  it("a moderator cannot close a report on their own listing; a non-moderator cannot close any", async () => {
    const moderator = await newModerator();
    const listing = await activeListing(moderator.key);
    const report = await reportListing({ ctx: await operatorCtx(), input: { code: listing.code, reason: "Poze de la alt imobil" } });
    expect((await listOpenReports({ ctx: moderator.ctx, input: { code: listing.code } }))[0].own).toBe(true);
    await expect(closeReport({ ctx: moderator.ctx, input: { id: report.id } })).rejects.toMatchObject({
      code: "listing_action_refused",
      params: { reason: "own_listing" },
    });
    const plain = await accountWithKey();
    const ctx = moderatorContext(await database(), { accountId: plain.account.id });
    await expect(closeReport({ ctx, input: { id: report.id } })).rejects.toMatchObject({ code: "forbidden" });
    await expect(listOpenReports({ ctx, input: {} })).rejects.toMatchObject({ code: "forbidden" });
    expect((await remove(moderator.key, listing.code)).status).toBe(409);
  });
});
