import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { database } from "@/db";
import { changeListingState } from "@/lib/domain/listings/change-state";
import { countAccountListings } from "@/lib/domain/listings/count-by-status";
import { deleteListing } from "@/lib/domain/listings/delete";
import { encodeSequenceCursor } from "@/lib/base/cursor";
import { searchKey } from "@/lib/domain/listings/internal/search-key";
import { searchKeySql } from "@/lib/domain/listings/internal/search-key-sql";
import { listAccountListings, accountListingsQuery } from "@/lib/domain/listings/list";
import { reportListing } from "@/lib/domain/listings/reports";
import { listOwnCoverPhotos } from "@/lib/domain/media/list-own-cover-photos";
import { newId } from "@/lib/base/ids";
import { refusalState } from "@/lib/adapters/portal/form-state";
import { signedIn } from "../portal-services/support";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { activeListing, createListing, validApartment } from "../support/listings";

const query = (values: Record<string, string> = {}) => accountListingsQuery.parse({ per_page: "20", ...values });

async function codesFound(ctx: Awaited<ReturnType<typeof signedIn>>, values: Record<string, string> = {}, search?: string) {
  const { page } = await listAccountListings({ ctx, input: { query: query(values), search } });
  return page.items.map((listed) => listed.row.code);
}

describe("My listings: the account's listings with a search", () => {
  it("finds by title, city, code and reference whatever the case and diacritics, and filters by state", async () => {
    const { account, key } = await accountWithKey();
    const flat = await createListing(
      key,
      validApartment({ title: "Apartament în Știrbei Vodă, lângă Cișmigiu", city: "București", external_ref: "CRM-77" }),
    );
    const other = await activeListing(key, validApartment({ title: "Garsonieră lângă parc", city: "Cluj-Napoca" }));
    const ctx = await signedIn(account);

    expect(await codesFound(ctx)).toEqual([other.code, flat.code]);
    for (const search of ["stirbei", "ȘTIRBEI VODĂ", "cismigiu", "  stirbei   voda ", "bucuresti", "crm-77", flat.code.toLowerCase()]) {
      expect(await codesFound(ctx, {}, search), search).toEqual([flat.code]);
    }
    expect(await codesFound(ctx, {}, "lânga")).toEqual([other.code, flat.code]);
    expect(await codesFound(ctx, {}, "100%")).toEqual([]);
    expect(await codesFound(ctx, { status: "active" }, "lânga")).toEqual([other.code]);
    expect(await codesFound(ctx, { status: "pending" })).toEqual([flat.code]);
  });

  it("shows an agency owner the agents' listings, an agent only their own, a stranger none; counts follow the same scope", async () => {
    const agency = `Agency ${newId("agency")}`;
    const agent = await accountWithKey({ account: { agency, role: "agent" } });
    const colleague = await accountWithKey({ account: { agency, role: "agent" } });
    const owner = await accountWithKey({ account: { agency, role: "owner" } });
    const stranger = await accountWithKey();
    const mine = await activeListing(agent.key);
    const theirs = await createListing(colleague.key);

    expect(await codesFound(await signedIn(owner.account))).toEqual([theirs.code, mine.code]);
    expect(await codesFound(await signedIn(agent.account))).toEqual([mine.code]);
    expect(await codesFound(await signedIn(stranger.account))).toEqual([]);

    const counts = await countAccountListings({ ctx: await signedIn(owner.account) });
    expect(counts.byStatus).toMatchObject({ active: 1, pending: 1, draft: 0, unconfirmed: 0 });
    expect(counts.confirmationDue).toBe(0);
    expect((await countAccountListings({ ctx: await signedIn(stranger.account) })).byStatus.active).toBe(0);
    // Covers are read in the same scope: a stranger's request for the codes finds nothing to show.
    expect(await listOwnCoverPhotos({ ctx: await signedIn(stranger.account), input: { codes: [mine.code] } })).toEqual(new Map());
  });

  it("pages by cursor over the newest changes first", async () => {
    const { account, key } = await accountWithKey();
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createListing(key)).code);
    const ctx = await signedIn(account);
    const first = await listAccountListings({ ctx, input: { query: query({ per_page: "2" }) } });
    expect(first.page.items.map((listed) => listed.row.code)).toEqual([made[4], made[3]]);
    const second = await listAccountListings({
      ctx,
      input: { query: query({ per_page: "2", cursor: encodeSequenceCursor(first.page.next!) }) },
    });
    expect(second.page.items.map((listed) => listed.row.code)).toEqual([made[2], made[1]]);
  });
});

describe("My listings: the owner's actions through the API's services", () => {
  it("writes the same events as the API for pause, resume, sold and delete made in the portal", async () => {
    const { account, key } = await accountWithKey();
    const listing = await activeListing(key);
    const ctx = await signedIn(account);
    for (const action of ["pause", "resume", "sold"] as const) await changeListingState({ ctx, input: { code: listing.code, action } });
    await deleteListing({ ctx, input: { code: listing.code } });
    const res = await call(eventsRoute, { path: "/events", key });
    expect((res.json!.data as { type: string; data: { status: string; by?: string } }[]).map((e) => `${e.type}:${e.data.status}`)).toEqual([
      "listing.published:active",
      "listing.paused:paused",
      "listing.reactivated:active",
      "listing.sold:sold",
      "listing.withdrawn:sold",
    ]);
  });

  it("says the API's refusal in the page's language: delete with an open report, pause of a paused listing", async () => {
    const { account, key } = await accountWithKey();
    const listing = await activeListing(key);
    await reportListing({ ctx: await operatorCtx(), input: { code: listing.code, reason: "Nu mai este disponibil." } });
    const ctx = await signedIn(account);
    const refused = await deleteListing({ ctx, input: { code: listing.code } }).catch((error: unknown) => error);
    expect(refusalState(refused, "en").message).toBe("The listing has open reports; it can be deleted once moderation has closed them.");
    expect(refusalState(refused, "ro").message).toBe("Anunțul are sesizări deschise; poate fi șters după ce moderarea le închide.");

    await changeListingState({ ctx, input: { code: listing.code, action: "sold" } });
    const pause = await changeListingState({ ctx, input: { code: listing.code, action: "pause" } }).catch((error: unknown) => error);
    expect(refusalState(pause, "en").message).toBe("Only an active listing can be paused; this one is sold.");
  });
});

describe("searchKeySql", () => {
  it("folds Latin letters in SQL exactly as searchKey does in JavaScript", async () => {
    const { connection: db } = await database();
    const samples = [
      "Știrbei Vodă",
      "ŞTIRBEI vodă",
      "Târgu   Mureș ",
      "Ţară ţeapă",
      "Straße Œuvre Æther",
      "Ærøskøbing Łódź",
      "Ĳsselmeer ǅemal",
      "plain ascii 123",
    ];
    for (const text of samples) {
      // postgres.js answers the rows as an array, PGlite as `{ rows }`.
      const result = (await db.execute(sql`select ${searchKeySql(sql`${text}::text`)} as key`)) as unknown;
      const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { key: string }[];
      expect(row.key, text).toBe(searchKey(text));
    }
  });
});
