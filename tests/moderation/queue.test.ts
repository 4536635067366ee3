import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { createListing as createListingService } from "@/lib/domain/listings/create";
import { listModerationQueue, nextInQueue } from "@/lib/domain/listings/moderation-queue";
import { getListingForReview } from "@/lib/domain/listings/review";
import { describeEdit } from "@/lib/domain/vocabulary/describe-edit";
import { accountContext, moderatorContext } from "@/lib/base/context";
import { accountWithKey } from "../support/fixtures";
import { activeListing, createListing, validApartment } from "../support/listings";
import { editPublished, newModerator } from "./support";
import { onPostgresRun } from "../support/engine";

type Moderator = Awaited<ReturnType<typeof newModerator>>;

/**
 * The whole queue, page after page, with the first page's counts: on PostgreSQL the suite shares one
 * database, whose queue holds other files' older listings before this file's.
 */
async function wholeQueue(ctx: Moderator["ctx"]) {
  const first = await listModerationQueue({ ctx, input: { perPage: 100 } });
  const items = [...first.items];
  for (let cursor = first.next; cursor;) {
    const page = await listModerationQueue({ ctx, input: { perPage: 100, cursor } });
    items.push(...page.items);
    cursor = page.next;
  }
  return { items, counts: first.counts };
}

describe("the moderation queue", () => {
  it("holds pending listings and pending edits of published ones, oldest first, never drafts nor published ones", async () => {
    const { key, account } = await accountWithKey();
    const { ctx } = await newModerator();
    const before = await listModerationQueue({ ctx, input: { perPage: 100 } });

    const pending = await createListing(key);
    const published = await activeListing(key);
    await editPublished(key, published.code, { price: 179000 });
    const untouched = await activeListing(key);
    const draft = await createListingService({
      ctx: accountContext(await database(), { accountId: account.id, agency: null }),
      input: { body: validApartment(), source: "portal", draft: true },
    });

    const queue = await wholeQueue(ctx);
    await expect(getListingForReview({ ctx, input: { code: draft.listed.row.code } })).rejects.toMatchObject({ code: "not_found" });
    const mine = queue.items.filter((item) => [pending.code, published.code, untouched.code, draft.listed.row.code].includes(item.code));
    expect(mine.map((item) => [item.code, item.kind])).toEqual([
      [pending.code, "new"],
      [published.code, "edit"],
    ]);
    expect(mine[0]).toMatchObject({ title: validApartment().title, city: validApartment().city, own: false, type: "apartment" });
    // On PostgreSQL the suite shares one database with other files writing at the same time: the
    // counts are exact only on this file's own embedded database.
    if (!onPostgresRun) expect(queue.counts).toEqual({ pending: before.counts.pending + 1, edits: before.counts.edits + 1 });
    else expect(queue.counts.pending * queue.counts.edits).toBeGreaterThan(0);
  });

  it("pages forward with a cursor, each item once in order; an unreadable cursor gives the first page", async () => {
    const { key } = await accountWithKey();
    const { ctx } = await newModerator();
    const older = await createListing(key);
    const newer = await createListing(key);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listModerationQueue({ ctx, input: { perPage: 2, cursor } });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item) => item.code));
      cursor = page.next;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((code) => code === older.code || code === newer.code)).toEqual([older.code, newer.code]);
    const stale = await listModerationQueue({ ctx, input: { perPage: 2, cursor: "not-a-cursor" } });
    expect(stale.items.length).toBeGreaterThan(0);
    expect(stale.items.map((item) => item.code)).toEqual(
      (await listModerationQueue({ ctx, input: { perPage: 2 } })).items.map((item) => item.code),
    );
  });

  it("marks the moderator's own and their agency's listings, and the next item to decide skips them", async () => {
    const agency = `Agenția ${Date.now()}`;
    const moderator = await newModerator({ agency, role: "agent" });
    const colleague = await accountWithKey({ account: { agency, role: "owner" } });
    const stranger = await accountWithKey();
    const own = await createListing(moderator.key);
    const agencys = await createListing(colleague.key);
    const other = await createListing(stranger.key);

    const queue = await wholeQueue(moderator.ctx);
    const flags = Object.fromEntries(queue.items.map((item) => [item.code, item.own]));
    expect([flags[own.code], flags[agencys.code], flags[other.code]]).toEqual([true, true, false]);
    expect((await getListingForReview({ ctx: moderator.ctx, input: { code: own.code } })).own).toBe(true);

    const next = await nextInQueue({ ctx: moderator.ctx });
    expect(next).not.toBeNull();
    expect([own.code, agencys.code]).not.toContain(next);
  });

  it("a review shows the edit against the published version, field by field, in the page's language", async () => {
    const { key } = await accountWithKey();
    const { ctx } = await newModerator();
    const published = await activeListing(key);
    await editPublished(key, published.code, { price: 179000, rooms: 4 });
    const review = await getListingForReview({ ctx, input: { code: published.code } });
    expect(review).toMatchObject({ status: "active", openReports: 0, own: false });
    const words = { yes: "yes", no: "no" };
    const changes = describeEdit({ before: review.fields, after: review.pendingFields!, locale: "en", words });
    expect(changes).toEqual([
      { name: "rooms", label: "Rooms", before: String(validApartment().rooms), after: "4" },
      { name: "price", label: "Price", before: Number(validApartment().price).toLocaleString("en-GB"), after: "179,000" },
    ]);
    const ro = describeEdit({ before: review.fields, after: review.pendingFields!, locale: "ro", words });
    expect(ro.map((change) => change.label)).toEqual(["Număr camere", "Preț"]);
  });

  it("is refused to an account that is not a moderator, as are reviews", async () => {
    const { account, key } = await accountWithKey();
    const listing = await createListing(key);
    const ctx = moderatorContext(await database(), { accountId: account.id });
    await expect(listModerationQueue({ ctx, input: {} })).rejects.toMatchObject({ code: "forbidden" });
    await expect(getListingForReview({ ctx, input: { code: listing.code } })).rejects.toMatchObject({ code: "forbidden" });
  });
});
