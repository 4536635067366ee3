import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { events } from "@/db/schema";
import { createListing } from "@/lib/domain/listings/create";
import { editListing } from "@/lib/domain/listings/edit";
import { getCatalogListing, getManagedListing } from "@/lib/domain/listings/get";
import { listingEtag, toListingDetail } from "@/lib/domain/listings/read-shape";
import { ValidationError } from "@/lib/base/errors";
import { refusalState } from "@/lib/adapters/portal/form-state";
import { documentOf, formSections, postedValues, storedValues, unsaidValues } from "@/lib/adapters/portal/listing-form";
import { controlOfPointer } from "@/lib/adapters/portal/unit-type-rows";
import { appErrorCode, freshAccount, signedIn } from "../portal-services/support";
import { accountWithKey } from "../support/fixtures";
import { moderate, validApartment } from "../support/listings";
import { valid } from "../validation/fixtures";

const portalEvents = async (accountId: string) => {
  const { connection: db } = await database();
  return (
    db
      .select()
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, "listing.edited_in_portal")))
      // In the order they were written: without it PostgreSQL may return them in any order (it did, once in CI).
      .orderBy(events.seq)
  );
};

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors.map((e) => `${e.pointer} ${e.code}`);
}

describe("the portal's listing form: drafts", () => {
  it("stores a draft with only its type and transaction, never public, and refuses a malformed value in it", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const { listed } = await createListing({
      ctx,
      input: { body: { type: "apartment", transaction: "rent", title: null, rooms: 2 }, source: "portal", draft: true },
    });
    expect(listed.row).toMatchObject({ status: "draft", fields: { type: "apartment", transaction: "rent", rooms: 2 } });
    expect(await appErrorCode(getCatalogListing({ ctx, input: { code: listed.row.code } }))).toBe("not_found");

    expect(await refusal(createListing({ ctx, input: { body: { rooms: 2 }, source: "portal", draft: true } }))).toEqual([
      "/type required",
      "/transaction required",
    ]);
    const outOfBounds = createListing({
      ctx,
      input: { body: { type: "apartment", transaction: "sale", usable_area_sqm: 5 }, source: "portal", draft: true },
    });
    expect(await refusal(outOfBounds)).toEqual(["/usable_area_sqm below_type_minimum"]);
    // Without `draft` the same body is judged for publication.
    const full = await refusal(createListing({ ctx, input: { body: { type: "apartment", transaction: "rent" }, source: "portal" } }));
    expect(full).toContain("/title required");
  });

  it("keeps an edited draft a draft under the draft rules, and submits it with full validation: draft → pending with listing.edited_in_portal", async () => {
    // Events are kept for accounts with an API key (someone may read them).
    const { account } = await accountWithKey();
    const ctx = await signedIn(account);
    const { listed } = await createListing({
      ctx,
      input: { body: { type: "apartment", transaction: "sale" }, source: "portal", draft: true },
    });
    const code = listed.row.code;
    const saved = await editListing({ ctx, input: { code, patch: { city: "Iași" }, ifMatch: listingEtag(listed.row), source: "portal" } });
    expect(saved.listed.row).toMatchObject({ status: "draft", fields: { city: "Iași" } });

    const incomplete = editListing({ ctx, input: { code, patch: {}, ifMatch: null, source: "portal", submit: true } });
    expect(await refusal(incomplete)).toContain("/title required");
    expect((await getManagedListing({ ctx, input: { code } })).row.status).toBe("draft");

    const submitted = await editListing({
      ctx,
      input: { code, patch: validApartment(), ifMatch: listingEtag(saved.listed.row), source: "portal", submit: true },
    });
    expect(submitted.listed.row.status).toBe("pending");
    const recorded = await portalEvents(account.id);
    expect(recorded.map((e) => e.data)).toEqual([
      expect.objectContaining({ code, status: "draft", etag: listingEtag(saved.listed.row) }),
      expect.objectContaining({ code, status: "pending", etag: listingEtag(submitted.listed.row) }),
    ]);
  });

  it("holds a portal edit of an active listing for moderation (202) and refuses a stale version with 412", async () => {
    const { account } = await accountWithKey();
    const ctx = await signedIn(account);
    const { listed } = await createListing({ ctx, input: { body: validApartment(), source: "portal" } });
    const code = listed.row.code;
    await moderate(code, { decision: "approve" });
    const active = (await getManagedListing({ ctx, input: { code } })).row;

    const edit = await editListing({ ctx, input: { code, patch: { price: 170000 }, ifMatch: listingEtag(active), source: "portal" } });
    expect(edit.heldForModeration).toBe(true);
    expect(edit.listed.row).toMatchObject({ status: "active", pendingFields: expect.objectContaining({ price: 170000 }) });
    expect((await getCatalogListing({ ctx, input: { code } })).price).toBe(validApartment().price);
    expect((await portalEvents(account.id)).at(-1)?.data).toMatchObject({ code, status: "active", etag: listingEtag(edit.listed.row) });

    const stale = editListing({ ctx, input: { code, patch: { price: 160000 }, ifMatch: listingEtag(active), source: "portal" } });
    expect(await appErrorCode(stale)).toBe("listing_changed_meanwhile");
  });

  it("answers not found for another account's listing, to read or to edit", async () => {
    const owner = await freshAccount();
    const stranger = await signedIn(await freshAccount());
    const { listed } = await createListing({ ctx: await signedIn(owner), input: { body: validApartment(), source: "portal" } });
    const code = listed.row.code;
    expect(await appErrorCode(getManagedListing({ ctx: stranger, input: { code } }))).toBe("not_found");
    expect(await appErrorCode(editListing({ ctx: stranger, input: { code, patch: {}, ifMatch: null, source: "portal" } }))).toBe(
      "not_found",
    );
  });
});

describe("the portal's listing form: fields from the vocabulary", () => {
  it("asks only for the fields of the type and transaction, with labels, units and the type's bounds", () => {
    const fields = formSections({ type: "apartment", transaction: "rent" }, "ro").flatMap((section) => section.fields);
    const names = fields.map((field) => field.name);
    expect(names).toContain("deposit_months");
    expect(names).toContain("comfort");
    expect(names).not.toContain("accepts_trade");
    expect(names).not.toContain("land_classification");
    expect(names).not.toContain("type");
    expect(fields.find((field) => field.name === "usable_area_sqm")).toMatchObject({
      label: "Suprafață utilă",
      unit: "m²",
      min: 10,
      max: 2000,
      required: true,
      control: "number",
    });
    expect(fields.find((field) => field.name === "price_period")?.options?.map((o) => o.value)).toEqual(["month", "night"]);
    const land = formSections({ type: "land", transaction: "sale" }, "en").flatMap((section) => section.fields);
    expect(land.find((field) => field.name === "land_area_sqm")).toMatchObject({ label: "Land area", required: true });
    expect(land.map((field) => field.name)).not.toContain("rooms");
  });

  it("groups the fields in short sections, every field of the vocabulary in one of them", () => {
    const sections = formSections({ type: "apartment", transaction: "rent" }, "en");
    expect(sections.map((section) => section.id)).toEqual(["description", "location", "size", "price", "facts", "more"]);
    const of = (id: string) => sections.find((section) => section.id === id)?.fields.map((field) => field.name) ?? [];
    expect(of("description")).toEqual(["subtype", "title", "content_locale", "description"]);
    expect(of("location")).toContain("country");
    expect(of("price")).toEqual(expect.arrayContaining(["price", "price_period", "negotiable"]));
    expect(of("more")).not.toContain("price_period");
    const names = sections.flatMap((section) => section.fields.map((field) => field.name));
    expect(new Set(names).size).toBe(names.length);
    for (const kind of [
      { type: "land", transaction: "sale" },
      { type: "development", transaction: "sale" },
      { type: "commercial", transaction: "rent" },
    ] as const) {
      // No section is empty: a kind without any of a section's fields has no such section.
      expect(formSections(kind, "ro").every((section) => section.fields.length > 0)).toBe(true);
    }
  });

  it("shows the country the API reads when a listing gives none", async () => {
    const ctx = await signedIn(await freshAccount());
    const withoutCountry = validApartment();
    delete withoutCountry.country;
    const { listed } = await createListing({ ctx, input: { body: withoutCountry, source: "portal", draft: true } });
    expect(listed.row.fields.country).toBeUndefined();
    expect(toListingDetail(listed.row, listed.lister, null).location.country).toBe("RO");
    expect(unsaidValues.country).toBe("RO");
  });

  it("turns the posted form into a merge patch (empty means null) and a stored listing back into the form's values", () => {
    const sections = formSections({ type: "apartment", transaction: "sale" }, "en");
    const form = new FormData();
    for (const [name, value] of Object.entries({
      title: "  Apartament  ",
      rooms: "3",
      usable_area_sqm: "54,5",
      negotiable: "no",
      city: "",
    })) {
      form.set(name, value);
    }
    form.append("features", "lift");
    form.append("features", "balcony");
    const document = documentOf(form, sections);
    expect(document).toMatchObject({
      title: "Apartament",
      rooms: 3,
      usable_area_sqm: 54.5,
      negotiable: false,
      city: null,
      features: ["lift", "balcony"],
    });
    expect(document.heating_types).toBeNull();
    expect(storedValues({ rooms: 3, negotiable: true, features: ["lift", "balcony"], title: "T" })).toEqual({
      rooms: "3",
      negotiable: "yes",
      features: "lift balcony",
      title: "T",
    });
  });

  it("words each field's error in the page's language, by the field's name", async () => {
    const ctx = await signedIn(await freshAccount());
    const error = await createListing({
      ctx,
      input: { body: { type: "apartment", transaction: "sale", usable_area_sqm: 5 }, source: "portal", draft: true },
    }).catch((e: unknown) => e);
    expect(refusalState(error, "en").fieldErrors?.usable_area_sqm).toMatch(/10/);
    expect(refusalState(error, "ro").fieldErrors?.usable_area_sqm).toMatch(/10/);
  });
});

describe("the portal's listing form: a development's unit types and parcel", () => {
  const kind = { type: "development", transaction: "sale" } as const;
  const sections = formSections(kind, "en");
  const parcel = "26.0975, 44.4608\n26.0991, 44.4608\n26.0991, 44.4618\n26.0975, 44.4618";
  /** The form as a holder fills it in: the fixture's values, a blank row between the two unit types, `changes` on top. */
  const posted = (changes: Record<string, string>) => {
    const form = new FormData();
    const values = storedValues(valid.development);
    const renumbered = Object.entries(values).map(([name, value]) => [name.replace(/^unit_types\.1\./, "unit_types.2."), value]);
    for (const [name, value] of [...renumbered, ["parcel", parcel], ...Object.entries(changes)]) form.set(name, value);
    return form;
  };
  const refusedWith = async (ctx: Awaited<ReturnType<typeof signedIn>>, form: FormData) => {
    const error = await createListing({ ctx, input: { body: { ...documentOf(form, sections), ...kind }, source: "portal" } }).catch(
      (e: unknown) => e,
    );
    return refusalState(error, "en", postedValues(form, sections), controlOfPointer);
  };

  it("puts the API's errors next to the row's control and the parcel's textarea, then saves both and shows them back", async () => {
    const ctx = await signedIn(await freshAccount());
    const badCorner = await refusedWith(ctx, posted({ parcel: `${parcel}\nnorth, 44.46` }));
    expect(badCorner.fieldErrors).toEqual({ parcel: expect.any(String) });
    expect(badCorner.values?.parcel).toBe(`${parcel}\nnorth, 44.46`);

    const areaBelow = await refusedWith(ctx, posted({ "unit_types.2.area_sqm_to": "60" }));
    // The blank row was dropped: the third row of the form is the document's second, and the values say so.
    expect(areaBelow.fieldErrors).toEqual({ "unit_types.1.area_sqm_to": expect.stringContaining("78") });
    expect(areaBelow.values).toMatchObject({ "unit_types.1.label": "3 camere", "unit_types.1.area_sqm_to": "60" });

    const oneFloor = await refusedWith(ctx, posted({ "unit_types.2.floors_to": "3" }));
    expect(oneFloor.fieldErrors).toEqual({ "unit_types.1.floors": expect.any(String) });
    const noLabel = await refusedWith(ctx, posted({ "unit_types.0.label": "" }));
    expect(Object.keys(noLabel.fieldErrors ?? {})).toContain("unit_types.0.label");
    const incomplete = await refusedWith(ctx, posted({ "unit_types.0.price": "" }));
    expect(Object.keys(incomplete.fieldErrors ?? {})).toEqual(["unit_types"]);

    const form = posted({ "unit_types.2.area_sqm_to": "90" });
    const { listed } = await createListing({ ctx, input: { body: { ...documentOf(form, sections), ...kind }, source: "portal" } });
    expect(listed.row.fields.unit_types).toEqual([
      valid.development.unit_types[0],
      { ...valid.development.unit_types[1], area_sqm_to: 90 },
    ]);
    expect((listed.row.fields.parcel as unknown[]).length).toBe(4);
    const shown = storedValues(listed.row.fields);
    expect(shown).toMatchObject({
      parcel,
      "unit_types.1.label": "3 camere",
      "unit_types.1.area_sqm_to": "90",
      "unit_types.0.floors_to": "8",
    });
    const again = new FormData();
    for (const [name, value] of Object.entries(shown)) again.set(name, value);
    expect(documentOf(again, sections)).toMatchObject({ unit_types: listed.row.fields.unit_types, parcel: listed.row.fields.parcel });
  });
});
