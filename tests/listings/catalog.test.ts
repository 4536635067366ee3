import { describe, expect, it } from "vitest";
import { GET as catalog } from "@/app/api/v1/listings/route";
import { GET as catalogListing } from "@/app/api/v1/listings/[code]/route";
import { newId } from "@/lib/base/ids";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing, validApartment } from "../support/listings";

describe("GET /listings – the public catalog", () => {
  it("shows active listings only, in the list shape, with filters compared in euros", async () => {
    const owner = await accountWithKey();
    const city = `Oraș ${newId("listing").slice(4, 12)}`;
    const cheap = await activeListing(
      owner.key,
      validApartment({ city, price: 400000, price_currency: "RON", rooms: 2, partitioning: "detached", bedrooms: 1 }),
    );
    const dear = await activeListing(owner.key, validApartment({ city, price: 250000, price_currency: "EUR" }));
    await createListing(owner.key, validApartment({ city }));
    const reader = await accountWithKey({ permissions: ["media:write"] });
    const all = await call(catalog, { path: `/listings?city=${encodeURIComponent(city.toUpperCase())}`, key: reader.key });
    expect(all.status).toBe(200);
    expect(all.json!.data.map((l: { code: string }) => l.code).sort()).toEqual([cheap.code, dear.code].sort());
    expect(all.json!.data[0]).not.toHaveProperty("status");
    expect(all.json!.data[0]).not.toHaveProperty("external_ref");
    const underEur = await call(catalog, { path: `/listings?city=${encodeURIComponent(city)}&price_max=100000`, key: reader.key });
    expect(underEur.json!.data.map((l: { code: string }) => l.code)).toEqual([cheap.code]);
    const rooms = await call(catalog, {
      path: `/listings?city=${encodeURIComponent(city)}&rooms=3&type=apartment&transaction=sale`,
      key: reader.key,
    });
    expect(rooms.json!.data.map((l: { code: string }) => l.code)).toEqual([dear.code]);
    const paged = await call(catalog, { path: `/listings?city=${encodeURIComponent(city)}&per_page=1`, key: reader.key });
    expect(paged.json!.data).toHaveLength(1);
    expect(paged.json!.meta.next_cursor).toEqual(expect.any(String));
  });

  it("finds a city however it is typed: case, diacritics (comma or cedilla) and spaces do not count", async () => {
    const owner = await accountWithKey();
    const unique = newId("listing").slice(4, 12).toLowerCase();
    const city = `Târgu Mureș ${unique}`;
    const listing = await activeListing(owner.key, validApartment({ city }));
    await activeListing(owner.key, validApartment({ city: `Targu Mures ${unique}x` }));
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    for (const typed of [`Targu Mures ${unique}`, `TÂRGU MUREŞ ${unique.toUpperCase()}`, `  targu   mureș ${unique} `]) {
      const found = await call(catalog, { path: `/listings?city=${encodeURIComponent(typed)}`, key: reader.key });
      expect(found.status).toBe(200);
      expect(
        found.json!.data.map((l: { code: string }) => l.code),
        typed,
      ).toEqual([listing.code]);
      // The listing keeps the city as its owner wrote it.
      expect(found.json!.data[0].location.city).toBe(city);
    }
    const none = await call(catalog, { path: `/listings?city=${encodeURIComponent(`Targu ${unique}`)}`, key: reader.key });
    expect(none.json!.data).toEqual([]);
  });

  it("shows one active listing and answers 404 for any other state", async () => {
    const owner = await accountWithKey();
    const active = await activeListing(owner.key);
    const pending = await createListing(owner.key);
    const other = await accountWithKey({ permissions: ["listings:read"] });
    const res = await call(catalogListing, { path: `/listings/${active.code}`, key: other.key, params: { code: active.code } });
    expect(res.status).toBe(200);
    expect(res.json!.data.code).toBe(active.code);
    expect(res.json!.data).not.toHaveProperty("moderation");
    expect((await call(catalogListing, { path: `/listings/${pending.code}`, key: other.key, params: { code: pending.code } })).status).toBe(
      404,
    );
  });

  it("answers its owner, another account and an unknown code alike, and says where an owner reads a listing that is not public", async () => {
    const owner = await accountWithKey();
    const pending = await createListing(owner.key);
    const other = await accountWithKey({ permissions: ["listings:read"] });
    const unknownCode = "ZZZZZZZ9";
    const read = (key: string, code: string, language = "en") =>
      call(catalogListing, { path: `/listings/${code}`, key, params: { code }, headers: { "accept-language": language } });
    const asOwner = await read(owner.key, pending.code);
    const asOther = await read(other.key, pending.code);
    expect([asOwner.status, asOther.status]).toEqual([404, 404]);
    expect(asOwner.json).toMatchObject({ code: "not_found" });
    expect(asOwner.json!.detail).toContain(`GET /account/listings/${pending.code}`);
    expect(asOther.json!.detail).toBe(asOwner.json!.detail);
    const unknown = await read(owner.key, unknownCode);
    expect(unknown.json!.detail).toBe(asOwner.json!.detail.replaceAll(pending.code, unknownCode));
    const romanian = await read(owner.key, pending.code, "ro");
    expect(romanian.json!.detail).toContain("catalogul public");
    expect(romanian.json!.detail).toContain(`GET /account/listings/${pending.code}`);
  });

  it("refuses bad filters with 422 and needs a valid key", async () => {
    const { key } = await accountWithKey();
    const bad = await call(catalog, { path: "/listings?price_min=cheap", key });
    expect(bad.status).toBe(422);
    expect(bad.json!.errors[0]).toMatchObject({ pointer: "/price_min", in: "query" });
    expect((await call(catalog, { path: "/listings" })).status).toBe(401);
  });
});
