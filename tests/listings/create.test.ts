import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { POST } from "@/app/api/v1/listings/route";
import { POST as validate } from "@/app/api/v1/listings/validate/route";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { listRates, setRate, withdrawRate } from "@/lib/domain/currency";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { validApartment } from "../support/listings";

const create = (key: string | undefined, body: unknown, headers?: Record<string, string>) =>
  call(POST, { path: "/listings", method: "POST", key, body, headers });

async function listingsOf(accountId: string) {
  const { connection } = await database();
  return connection.select({ code: listings.code }).from(listings).where(eq(listings.accountId, accountId));
}

describe("POST /listings – happy", () => {
  it("creates a pending listing: 201 with Location, ETag and the detail shape", async () => {
    const { key, account } = await accountWithKey({ account: { phone: "+40721234567", name: "Ana Pop" } });
    const res = await create(key, validApartment({ external_ref: "crm-1" }));
    expect(res.status).toBe(201);
    const data = res.json!.data;
    expect(data.code).toMatch(/^[A-Z2-9]{8}$/);
    expect(res.headers.get("location")).toBe(`/api/v1/account/listings/${data.code}`);
    expect(res.headers.get("etag")).toBe(data.etag);
    expect(data).toMatchObject({
      status: "pending",
      type: "apartment",
      transaction: "sale",
      external_ref: "crm-1",
      price: 185000,
      currency: "EUR",
      price_declared: { amount: 185000, currency: "EUR" },
      location: { city: "București", lat: 44.4612, lng: 26.1003, precision: "exact" },
      facts: { rooms: 3, floor: "4", usable_area_sqm: 78.5 },
      moderation: { edit_pending: false, rejection_reason: null, rejection_codes: [] },
      media: { processing: false },
      contact_phone: "+40721234567",
      attribution: { lister: "Ana Pop", source: "api", source_external_id: "crm-1" },
      published_at: null,
      url: `http://localhost:3000/listings/${data.code}`,
    });
    expect(res.json!.warnings).toEqual([]);
    const read = await call(accountListing, { path: `/account/listings/${data.code}`, key, params: { code: data.code } });
    expect(read.json!.data).toEqual(data);
    const [stored] = await (
      await database()
    ).connection
      .select({ accountId: listings.accountId })
      .from(listings)
      .where(eq(listings.code, data.code));
    expect(stored.accountId).toBe(account.id);
  });

  it("converts a price in RON to euros and keeps the declared one", async () => {
    const { key } = await accountWithKey();
    const res = await create(key, validApartment({ price: 900000, price_currency: "RON" }));
    expect(res.status).toBe(201);
    expect(res.json!.data.price_declared).toEqual({ amount: 900000, currency: "RON" });
    expect(res.json!.data.currency).toBe("EUR");
    // At the seeded rate of 0.201 EUR per RON, rounded to whole euros.
    expect(res.json!.data.price).toBe(180_900);
  });

  it("succeeds with warnings for fields that do not apply, unknown amenities and unknown members", async () => {
    const { key } = await accountWithKey();
    const res = await create(key, validApartment({ land_frontage: 12, features: ["no_such_amenity"], shoe_size: 44 }));
    expect(res.status).toBe(201);
    expect(res.json!.warnings).toEqual([
      { pointer: "/land_frontage", code: "field_not_applicable" },
      { pointer: "/features/0", code: "unknown_amenity" },
      { pointer: "/shoe_size", code: "unknown_field" },
    ]);
    expect(res.json!.data.facts.land_frontage).toBeUndefined();
  });

  it("replays the first answer for the same Idempotency-Key and body", async () => {
    const { key } = await accountWithKey();
    const first = await create(key, validApartment(), { "idempotency-key": "create-42" });
    const again = await create(key, validApartment(), { "idempotency-key": "create-42" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json!.data.code).toBe(first.json!.data.code);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));
    const other = await create(key, validApartment({ price: 1 }), { "idempotency-key": "create-42" });
    expect(other.status).toBe(422);
    expect(other.json!.code).toBe("idempotency_key_reused");
  });
});

describe("POST /listings – errors", () => {
  it("refuses an invalid body with one error per field problem and writes nothing", async () => {
    const { key, account } = await accountWithKey();
    const res = await create(key, validApartment({ title: "aaaa", price: 0, floor: "roof" }));
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const found = res.json!.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`);
    expect(found).toEqual(["/title meaningful_text", "/title min", "/floor invalid_value", "/price between"]);
    expect(await listingsOf(account.id)).toEqual([]);
  });

  it("gives the detail in the request's language with the same codes", async () => {
    const { key } = await accountWithKey();
    const en = await call(POST, { path: "/listings?locale=en", method: "POST", key, body: validApartment({ rooms: 0 }) });
    const ro = await call(POST, { path: "/listings?locale=ro", method: "POST", key, body: validApartment({ rooms: 0 }) });
    expect(en.status).toBe(422);
    const codes = (res: typeof en) => res.json!.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`);
    expect(codes(en)).toEqual(["/rooms between"]);
    expect(codes(ro)).toEqual(codes(en));
    expect(en.json!.title).not.toBe(ro.json!.title);
    expect(en.json!.errors[0].detail).not.toBe(ro.json!.errors[0].detail);
  });

  it("refuses a body that is not an object, malformed JSON and other media types", async () => {
    const { key } = await accountWithKey();
    const notObject = await create(key, [1, 2]);
    expect(notObject.status).toBe(422);
    expect(notObject.json!.errors).toEqual([expect.objectContaining({ pointer: "", code: "object" })]);
    const malformed = await call(POST, {
      path: "/listings",
      method: "POST",
      key,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json!.code).toBe("malformed_json");
    const plain = await call(POST, { path: "/listings", method: "POST", key, rawBody: "x", headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(415);
    expect(plain.json!.code).toBe("unsupported_media_type");
  });

  it("refuses an external_ref the account already uses", async () => {
    const { key } = await accountWithKey();
    expect((await create(key, validApartment({ external_ref: "dup-1" }))).status).toBe(201);
    const again = await create(key, validApartment({ external_ref: "dup-1" }));
    expect(again.status).toBe(422);
    expect(again.json!.errors).toEqual([expect.objectContaining({ pointer: "/external_ref", code: "invalid_value" })]);
  });

  it("refuses read-only members", async () => {
    const { key } = await accountWithKey();
    const res = await create(key, validApartment({ status: "active" }));
    expect(res.status).toBe(422);
    expect(res.json!.errors).toEqual([expect.objectContaining({ pointer: "/status", code: "invalid" })]);
  });
});

describe("POST /listings – currency refusals", () => {
  it("refuses a currency not offered, a withdrawn rate and a price above the cap in euros", async () => {
    const { key } = await accountWithKey();
    const notOffered = await create(key, validApartment({ price_currency: "CHF" }));
    expect(notOffered.status).toBe(422);
    expect(notOffered.json!.errors).toEqual([expect.objectContaining({ pointer: "/price_currency", code: "price_currency_not_offered" })]);
    const aboveCap = await create(key, validApartment({ price: 300_000_000 }));
    expect(aboveCap.status).toBe(422);
    expect(aboveCap.json!.errors).toEqual([expect.objectContaining({ pointer: "/price", code: "price_above_cap" })]);
    const ctx = await operatorCtx();
    const [gbp] = (await listRates({ ctx })).filter((rate) => rate.currency === "GBP");
    await withdrawRate({ ctx, input: { currency: "GBP" } });
    try {
      const unavailable = await create(key, validApartment({ price_currency: "GBP" }));
      expect(unavailable.status).toBe(422);
      expect(unavailable.json!.errors).toEqual([
        expect.objectContaining({ pointer: "/price_currency", code: "price_currency_unavailable" }),
      ]);
    } finally {
      await setRate({ ctx, input: { currency: "GBP", eurPerUnit: gbp.eurPerUnit! } });
    }
    expect((await create(key, validApartment({ price_currency: "GBP" }))).status).toBe(201);
  });
});

describe("POST /listings/validate", () => {
  it("answers valid with warnings and writes nothing; 422 like creation otherwise", async () => {
    const { key, account } = await accountWithKey();
    const ok = await call(validate, { path: "/listings/validate", method: "POST", key, body: validApartment() });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ data: { valid: true }, warnings: [] });
    const bad = await call(validate, { path: "/listings/validate", method: "POST", key, body: validApartment({ bedrooms: 5, rooms: 2 }) });
    expect(bad.status).toBe(422);
    expect(bad.json!.errors).toEqual([expect.objectContaining({ pointer: "/bedrooms", code: "bedrooms_above_rooms" })]);
    expect(await listingsOf(account.id)).toEqual([]);
  });
});

describe("POST /listings – security", () => {
  it("needs a key with listings:write", async () => {
    expect((await create(undefined, validApartment())).status).toBe(401);
    const { key } = await accountWithKey({ permissions: ["listings:read", "media:write"] });
    const res = await create(key, validApartment());
    expect(res.status).toBe(403);
    expect(res.json!.code).toBe("missing_ability");
    const validateRes = await call(validate, { path: "/listings/validate", method: "POST", key, body: validApartment() });
    expect(validateRes.status).toBe(403);
  });
});
