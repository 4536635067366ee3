import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as deleteRoute } from "@/app/api/v1/listings/[code]/route";
import { POST as soldRoute } from "@/app/api/v1/listings/[code]/sold/route";
import { PUT as upsertRoute } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { database, resultRows } from "@/db";
import { listings, photos } from "@/db/schema";
import { accountContext } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { createListing as createListingService } from "@/lib/domain/listings/create";
import { addressKey, addressKeySql } from "@/lib/domain/listings/internal/address-key";
import { metresBetween } from "@/lib/domain/listings/internal/duplicates";
import { getListingForReview } from "@/lib/domain/listings/review";
import { newModerator } from "../moderation/support";
import { accountWithKey, call } from "../support/fixtures";
import { moderate, validApartment } from "../support/listings";

/**
 * A place no other test uses (on PostgreSQL the suite shares one database): a street of its own and
 * coordinates drawn in a corner of the map where no example listing lies.
 */
function newPlace() {
  const street = `Strada Test ${newId("listing").slice(-10)}`;
  const latitude = 46 + randomInt(1_000_000) / 1_000_000;
  const longitude = 23 + randomInt(1_000_000) / 1_000_000;
  return { street, street_number: "12", latitude, longitude };
}

type Place = ReturnType<typeof newPlace>;

/** The place moved `metres` north: the same longitude, the latitude a little higher. */
const north = (place: Place, metres: number) => ({ ...place, latitude: place.latitude + metres / 111_195 });

async function post(key: string, body: Record<string, unknown>) {
  const res = await call(createRoute, { path: "/listings", method: "POST", key, body });
  expect(res.status, res.text).toBe(201);
  return res.json as { data: { code: string; etag: string }; warnings: { pointer: string; code: string; listing?: string }[] };
}

const duplicateOf = (code: string) => ({ pointer: "", code: "possible_duplicate", listing: code });
const duplicates = (answer: { warnings: { code: string }[] }) => answer.warnings.filter((warning) => warning.code === "possible_duplicate");

describe("the address key", () => {
  it("folds case, diacritics, punctuation, spaces, `str.`/`strada` and the boulevard's abbreviations", () => {
    const key = (city: string, street: string, number: string) => addressKey({ city, street, street_number: number });
    const barbu = key("București", "Strada Barbu Văcărescu", "12");
    expect(barbu).toBe("bucuresti|barbuvacarescu|12");
    expect(key("BUCURESTI", "str.barbu vacarescu", "nr. 12")).toBe(barbu);
    expect(key(" bucurești ", "Str. Barbu  Văcărescu", "Nr 12")).toBe(barbu);
    expect(key("Bucuresti", "Barbu Vacarescu", "12")).toBe(barbu);
    expect(key("Cluj-Napoca", "Bd. 21 Decembrie 1989", "5 A")).toBe(key("Cluj Napoca", "Bulevardul 21 Decembrie 1989", "5a"));
    expect(key("Cluj-Napoca", "B-dul 21 Decembrie 1989", "5A")).toBe(key("Cluj Napoca", "bdul 21 decembrie 1989", "5A"));
    expect(key("București", "Strada Unirii", "1")).not.toBe(key("București", "Bulevardul Unirii", "1"));
    expect(key("București", "Strada Barbu Văcărescu", "14")).not.toBe(barbu);
    expect(addressKey({ city: "București", street: "Strada Barbu Văcărescu" })).toBeNull();
    expect(key("București", "Strada Barbu Văcărescu", "nr.")).toBeNull();
  });

  it("is the same in SQL (migration 0028's backfill) as in TypeScript", async () => {
    const samples = [
      { city: "București", street: "Strada Barbu Văcărescu", street_number: "12" },
      { city: "TÂRGU  MUREȘ", street: "str.Gheorghe Doja", street_number: "nr. 5 bis" },
      { city: "Cluj-Napoca", street: "B-dul 21 Decembrie 1989", street_number: "5A" },
      { city: "Iași", street: "Bd. Ștefan cel Mare și Sfânt", street_number: "Nr 1" },
      { city: "Brașov", street: "Aleea Ţebei", street_number: "3" },
      { city: "Constanța", street: "Strada", street_number: "7" },
      { city: "Sibiu", street: "Strada Cetății", street_number: "-" },
      { city: "Sibiu", street: "Strada Cetății" },
    ];
    const { connection: db } = await database();
    for (const fields of samples) {
      const [row] = resultRows<{ key: string | null }>(
        await db.execute(sql`select ${addressKeySql(sql`${JSON.stringify(fields)}::jsonb`)} as key`),
      );
      expect(row.key, JSON.stringify(fields)).toBe(addressKey(fields));
    }
  });
});

describe("migration 0028", () => {
  it("fills the address key and coordinates of a listing written before them as a write does", async () => {
    const { key } = await accountWithKey();
    const place = { ...newPlace(), street: "Str. Ştefan cel Mare", street_number: "nr. 3B" };
    const { data } = await post(key, validApartment(place));
    const { connection: db } = await database();
    const columns = { addressKey: listings.addressKey, latitude: listings.latitude, longitude: listings.longitude };
    const [written] = await db.select(columns).from(listings).where(eq(listings.code, data.code));
    expect(written).toEqual({ addressKey: addressKey(validApartment(place)), latitude: place.latitude, longitude: place.longitude });
    await db.update(listings).set({ addressKey: null, latitude: null, longitude: null }).where(eq(listings.code, data.code));
    const file = readFileSync(path.resolve(import.meta.dirname, "../../db/migrations/0028_duplicate_checks.sql"), "utf8");
    const backfill = file
      .split("--> statement-breakpoint")
      .map((statement) => statement.replace(/^\s*(--.*\n)*/, "").trim())
      .find((statement) => statement.startsWith('UPDATE "listings"'))!;
    // This listing only: the suite's other listings are other files' (on PostgreSQL, one database).
    await db.execute(sql.raw(`${backfill.replace(/;$/, "")} WHERE "code" = '${data.code}'`));
    expect((await db.select(columns).from(listings).where(eq(listings.code, data.code)))[0]).toEqual(written);
  });
});

describe("possible_duplicate warnings", () => {
  it("names the account's listing at the same address, in the declared shape, oldest first", async () => {
    const { key } = await accountWithKey();
    const place = newPlace();
    const first = await post(key, validApartment(place));
    expect(duplicates(first)).toEqual([]);
    // The same address spelled otherwise, its coordinates 300 m off: the address decides.
    const second = await post(
      key,
      validApartment({ ...north(place, 300), street: place.street.replace("Strada", "str."), city: "BUCURESTI" }),
    );
    expect(second.warnings).toEqual([duplicateOf(first.data.code)]);
    const third = await post(key, validApartment(place));
    expect(duplicates(third)).toEqual([duplicateOf(first.data.code), duplicateOf(second.data.code)]);
  });

  it("names the listing whose coordinates are within 25 m, whatever its address says", async () => {
    const { key } = await accountWithKey();
    const place = newPlace();
    const first = await post(key, validApartment(place));
    const near = north(place, 20);
    expect(metresBetween(place, near)).toBeLessThan(25);
    const second = await post(key, validApartment({ ...near, street: "Strada Alta", street_number: "3" }));
    expect(duplicates(second)).toEqual([duplicateOf(first.data.code)]);
    // 40 m south: 60 m from the second.
    const far = north(place, -40);
    const third = await post(key, validApartment({ ...far, street: "Strada Alta", street_number: "5" }));
    expect(duplicates(third)).toEqual([]);
  });

  it("does not match the same street with another number, the same building with another area, other rooms or another transaction", async () => {
    const { key } = await accountWithKey();
    const place = newPlace();
    await post(key, validApartment(place));
    const away = north(place, 200);
    // Same street, other number, 200 m away.
    expect(duplicates(await post(key, validApartment({ ...away, street: place.street, street_number: "14" })))).toEqual([]);
    // Same building (address and coordinates), another flat: 78.5 m² against 85 m² and 76 m².
    expect(duplicates(await post(key, validApartment({ ...place, usable_area_sqm: 85 })))).toEqual([]);
    expect(duplicates(await post(key, validApartment({ ...place, usable_area_sqm: 76 })))).toEqual([]);
    // Within 3 %: 78.5 against 80.5.
    expect(duplicates(await post(key, validApartment({ ...place, usable_area_sqm: 80.5 })))).toHaveLength(1);
    // Other rooms, the same area.
    expect(duplicates(await post(key, validApartment({ ...place, street_number: "12", rooms: 2, bedrooms: 1 })))).toEqual([]);
    // For rent rather than for sale.
    expect(duplicates(await post(key, validApartment({ ...place, transaction: "rent", price: 900 })))).toEqual([]);
  });

  it("never names another account's listing, nor a deleted or sold one", async () => {
    const owner = await accountWithKey();
    const agency = await accountWithKey();
    const place = newPlace();
    await post(owner.key, validApartment(place));
    expect(duplicates(await post(agency.key, validApartment(place)))).toEqual([]);

    const { key } = await accountWithKey();
    const deleted = await post(key, validApartment(place));
    const gone = await call(deleteRoute, {
      path: `/listings/${deleted.data.code}`,
      method: "DELETE",
      key,
      params: { code: deleted.data.code },
    });
    expect(gone.status).toBe(204);
    const sold = await post(key, validApartment(place));
    await moderate(sold.data.code, { decision: "approve" });
    const marked = await call(soldRoute, {
      path: `/listings/${sold.data.code}/sold`,
      method: "POST",
      key,
      params: { code: sold.data.code },
    });
    expect(marked.status).toBe(200);
    expect(duplicates(await post(key, validApartment(place)))).toEqual([]);
  });

  it("counts the account's drafts, and warns in the portal's creation too", async () => {
    const { key, account } = await accountWithKey();
    const place = newPlace();
    const ctx = accountContext(await database(), { accountId: account.id, agency: null });
    const draft = await createListingService({ ctx, input: { body: validApartment(place), source: "portal", draft: true } });
    const created = await post(key, validApartment(place));
    expect(duplicates(created)).toEqual([duplicateOf(draft.listed.row.code)]);
    const again = await createListingService({ ctx, input: { body: validApartment(place), source: "portal" } });
    expect(again.warnings).toEqual([duplicateOf(draft.listed.row.code), duplicateOf(created.data.code)]);
  });

  it("warns on PUT /listings/ref/{ref}, created, updated or held for moderation, never naming the listing itself", async () => {
    const { key } = await accountWithKey();
    const place = newPlace();
    const put = (ref: string, body: unknown) =>
      call(upsertRoute, { path: `/listings/ref/${ref}`, method: "PUT", key, body, params: { ref } });
    const first = await put("crm-a", validApartment(place));
    expect(first.status).toBe(201);
    expect(first.json!.warnings).toEqual([]);
    const second = await put("crm-b", validApartment({ ...place, usable_area_sqm: 95 }));
    expect(second.json!.warnings).toEqual([]);
    // The CRM corrects the area: now the same flat as crm-a.
    const corrected = await put("crm-b", { usable_area_sqm: 78 });
    expect(corrected.status).toBe(200);
    expect(corrected.json!.warnings).toEqual([duplicateOf(first.json!.data.code)]);
    const unchanged = await put("crm-b", { usable_area_sqm: 78 });
    expect(unchanged.headers.get("x-service-unchanged")).toBe("true");
    expect(unchanged.json!.warnings).toEqual([duplicateOf(first.json!.data.code)]);
    // Published, then edited: the edit waits for moderation and is what is compared.
    await moderate(first.json!.data.code, { decision: "approve" });
    const held = await put("crm-a", { usable_area_sqm: 120 });
    expect(held.status).toBe(202);
    expect(held.json!.warnings).toEqual([]);
    const back = await put("crm-a", { usable_area_sqm: 78.5 });
    expect(back.json!.warnings).toEqual([duplicateOf(second.json!.data.code)]);
  });

  it("compares the covers' perceptual hashes when both listings have one", async () => {
    const { key } = await accountWithKey();
    const place = newPlace();
    const first = await post(key, validApartment(place));
    await giveCover(first.data.code, 0x0f0f_0f0f_0f0f_0f0fn);
    const put = (ref: string, body: unknown) =>
      call(upsertRoute, { path: `/listings/ref/${ref}`, method: "PUT", key, body, params: { ref } });
    const other = await put("crm-cover", validApartment(place));
    // No cover yet: the hash is not compared.
    expect(other.json!.warnings).toEqual([duplicateOf(first.data.code)]);
    // Another picture (every bit differs): not the same place after all.
    await giveCover(other.json!.data.code, ~0x0f0f_0f0f_0f0f_0f0fn);
    expect((await put("crm-cover", {})).json!.warnings).toEqual([]);
    // The same picture, recompressed (3 bits differ).
    await giveCover(other.json!.data.code, 0x0f0f_0f0f_0f0f_0f08n);
    expect((await put("crm-cover", {})).json!.warnings).toEqual([duplicateOf(first.data.code)]);
  });
});

describe("the moderation desk's likely duplicates", () => {
  it("shows other accounts' listings of the same place beside the one under review, never drafts nor other places", async () => {
    const owner = await accountWithKey();
    const agency = await accountWithKey();
    const { ctx } = await newModerator();
    const place = newPlace();
    const byOwner = await post(owner.key, validApartment(place));
    const byAgency = await post(agency.key, validApartment({ ...north(place, 10), street: "Strada Alta", street_number: "1" }));
    const sameAccount = await post(agency.key, validApartment(place));
    await post(agency.key, validApartment({ ...place, usable_area_sqm: 120 }));
    const draftCtx = accountContext(await database(), { accountId: agency.account.id, agency: null });
    await createListingService({ ctx: draftCtx, input: { body: validApartment(place), source: "portal", draft: true } });

    const review = await getListingForReview({ ctx, input: { code: byOwner.data.code } });
    expect(review.duplicates.map((other) => other.code)).toEqual([byAgency.data.code, sameAccount.data.code]);
    expect(review.duplicates[0]).toMatchObject({
      status: "pending",
      lister: expect.any(String),
      fields: expect.objectContaining({ street: "Strada Alta" }),
    });
    // From the agency's listing, the owner's is the other account's; the agency's own are not.
    const fromAgency = await getListingForReview({ ctx, input: { code: byAgency.data.code } });
    expect(fromAgency.duplicates.map((other) => other.code)).toEqual([byOwner.data.code]);
  });
});

/** Gives the listing a processed cover photo with this perceptual hash (as photo processing stores one). */
async function giveCover(code: string, hash: bigint) {
  const { connection: db } = await database();
  const [row] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
  await db.delete(photos).where(eq(photos.listingId, row.id));
  const url = `https://files.example.test/${code}/${newId("photo")}.webp`;
  const derivative = { key: url, url, contentType: "image/webp", width: 1600, height: 1200, size: 1000 };
  await db.insert(photos).values({
    id: newId("photo"),
    listingId: row.id,
    position: 0,
    sourceUrl: url,
    state: "done",
    derivatives: { webp_1600: derivative, webp_400: derivative, jpeg_1600: derivative },
    perceptualHash: BigInt.asIntN(64, hash),
  });
  await db
    .update(listings)
    .set({ images: [url] })
    .where(eq(listings.id, row.id));
}
