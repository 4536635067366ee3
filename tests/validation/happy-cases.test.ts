import { describe, expect, it } from "vitest";
import { check, valid, variant, type Fixture } from "./fixtures";

describe("validateListing accepts a complete listing of every property type", () => {
  it.each(Object.keys(valid) as Fixture[])("%s", (fixture) => {
    const result = check(valid[fixture]);
    expect(result).toMatchObject({ ok: true, warnings: [] });
  });

  it("stores only the fields sent, nulls removed, the price period made explicit", () => {
    const result = check(variant("apartmentSale", { landmark: null, comfort: null }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).not.toHaveProperty("landmark");
    expect(result.value).not.toHaveProperty("comfort");
    expect(result.value.price_period).toBe("total");
    expect(check(valid.apartmentRent)).toMatchObject({ ok: true, value: { price_period: "month" } });
  });

  it("normalizes text: trimmed, empty text means no value, language lowercase, country uppercase, phone E.164", () => {
    const result = check(
      variant("apartmentSale", {
        title: "   Apartament 3 camere Floreasca  ",
        area: "   ",
        content_locale: "RO",
        country: "ro",
        contact_phone: "0722 123 456",
      }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).toMatchObject({
      title: "Apartament 3 camere Floreasca",
      content_locale: "ro",
      country: "RO",
      contact_phone: "+40722123456",
    });
    expect(result.value).not.toHaveProperty("area");
  });

  it("a development needs no price of its own; its unit types carry prices", () => {
    const result = check(valid.development);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).not.toHaveProperty("price_period");
  });

  it("accepts any offered currency with a rate, converting for the cap", () => {
    expect(check(variant("apartmentSale", { price_currency: "RON", price: 1_000_000_000 })).ok).toBe(true);
    expect(check(variant("apartmentSale", { price_currency: "USD" })).ok).toBe(true);
  });
});
