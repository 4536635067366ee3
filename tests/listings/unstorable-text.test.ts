import { describe, expect, it } from "vitest";
import { GET as accountListingByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { GET as catalog, POST as createRoute } from "@/app/api/v1/listings/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { PUT as putByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as sandboxModeration } from "@/app/api/v1/sandbox/listings/[code]/moderation/route";
import { POST as validateRoute } from "@/app/api/v1/listings/validate/route";
import { writeFields } from "@/lib/domain/vocabulary";
import { accountWithKey, call } from "../support/fixtures";
import { createListing, validApartment } from "../support/listings";
import { valid } from "../validation/fixtures";

// Issue 6, row 3: PostgreSQL text cannot hold U+0000 and jsonb refuses lone surrogates; these
// answered 500 on every write while /listings/validate answered 200 for the same body.

const textFields = Object.entries(writeFields)
  .filter(([, spec]) => spec.kind === "text")
  .map(([name]) => name);

const controlDetail = /control character/;
const surrogateDetail = /lone UTF-16 surrogate/;

const create = (key: string, body: unknown) => call(createRoute, { path: "/listings", method: "POST", key, body });
const validate = (key: string, body: unknown) => call(validateRoute, { path: "/listings/validate", method: "POST", key, body });
const patch = (key: string, code: string, body: unknown) =>
  call(PATCH, {
    path: `/listings/${code}`,
    method: "PATCH",
    key,
    body,
    params: { code },
    headers: { "content-type": "application/merge-patch+json" },
  });
const put = (key: string, ref: string, body: unknown) =>
  call(putByRef, { path: `/listings/ref/${ref}`, method: "PUT", key, body, params: { ref } });

/** The refusal of one unstorable text: 422 with `invalid` at the text's pointer. */
function expectRefused(res: Awaited<ReturnType<typeof call>>, pointer: string, detail: RegExp) {
  expect(res.status, res.text).toBe(422);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(res.json!.errors).toContainEqual({ pointer, code: "invalid", reason: expect.any(String), detail: expect.stringMatching(detail) });
}

describe("unstorable text in a listing body", () => {
  it.each(textFields)("U+0000 in %s: 422 invalid at its pointer, the same from validate and create", async (field) => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    const body = validApartment({ [field]: "Strada Mare 12\u0000" });
    const created = await create(key, body);
    expectRefused(created, `/${field}`, controlDetail);
    const validated = await validate(key, body);
    expect(validated.status).toBe(422);
    expect(validated.json!.errors).toEqual(created.json!.errors);
  });

  it.each(["\ud800", "\udc00", "abc\ud800def", "\udfff\ud83d"])("a lone surrogate (%j) in the title: 422 invalid", async (text) => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    const body = validApartment({ title: `Apartament 3 camere ${text}` });
    expectRefused(await create(key, body), "/title", surrogateDetail);
    expectRefused(await validate(key, body), "/title", surrogateDetail);
  });

  it.each(["\u0001", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f", "\u007f", "\u0085", "\u009f"])(
    "the control character %j in the description: 422 invalid",
    async (control) => {
      const { key } = await accountWithKey({ account: { locale: "en" } });
      const body = validApartment({ description: `Apartament luminos cu trei camere${control}, renovat complet recent.` });
      expectRefused(await create(key, body), "/description", controlDetail);
    },
  );

  it("keeps tab, line feed, carriage return, bidi controls and surrogate pairs", async () => {
    const { key } = await accountWithKey();
    const description = "Apartament luminos cu trei camere,\r\n\trenovat complet \u202eNOU\u202c, aproape de metrou 🏠.";
    const res = await create(key, validApartment({ description }));
    expect(res.status, res.text).toBe(201);
    expect(res.json!.data.description).toBe(description);
  });

  it("refuses nested texts at their own pointer: a unit type's name, an amenity", async () => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    const development = {
      ...valid.development,
      unit_types: [valid.development.unit_types[0], { ...valid.development.unit_types[1], label: "3 camere\u0000" }],
    };
    expectRefused(await create(key, development), "/unit_types/1/label", controlDetail);
    expectRefused(await validate(key, development), "/unit_types/1/label", controlDetail);
    expectRefused(await create(key, validApartment({ features: ["fridge", "\ud800"] })), "/features/1", surrogateDetail);
  });

  it("PATCH refuses it with the same answer and changes nothing", async () => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    const listing = await createListing(key);
    for (const field of ["title", "city", "street", "address", "landmark", "trade_other"]) {
      expectRefused(await patch(key, listing.code, { [field]: "Strada Mare\u0000 12" }), `/${field}`, controlDetail);
      expectRefused(await patch(key, listing.code, { [field]: "Strada Mare \ud800 12" }), `/${field}`, surrogateDetail);
    }
    const unchanged = await patch(key, listing.code, {});
    expect(unchanged.json!.data.etag).toBe(listing.etag);
  });

  it("PUT /listings/ref/{ref} refuses it when creating and when updating", async () => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    expectRefused(await put(key, "crm-1", validApartment({ city: "București\u0000" })), "/city", controlDetail);
    expect((await put(key, "crm-1", validApartment())).status).toBe(201);
    expectRefused(await put(key, "crm-1", { street_number: "12\udc00" }), "/street_number", surrogateDetail);
  });
});

describe("unstorable text beside the listing", () => {
  it.each(["Duplicat\u0000", "Duplicat \ud800"])(
    "the sandbox moderation's reason %j: 422 invalid at /reason, nothing changed",
    async (reason) => {
      const { key } = await accountWithKey({ account: { locale: "en" } });
      const listing = await createListing(key);
      const res = await call(sandboxModeration, {
        path: `/sandbox/listings/${listing.code}/moderation`,
        method: "POST",
        key,
        body: { decision: "reject", reason, rejection_codes: ["duplicate"] },
        params: { code: listing.code },
      });
      expectRefused(res, "/reason", /control character|lone UTF-16 surrogate/);
      expect((await patch(key, listing.code, {})).json!.data).toMatchObject({ status: "pending", etag: listing.etag });
    },
  );
});

describe("unstorable text in the URL", () => {
  it("GET /account/listings/ref/{ref} with U+0000 is 404: no listing can have that ref", async () => {
    const { key } = await accountWithKey();
    const res = await call(accountListingByRef, { path: "/account/listings/ref/abc%00", key, params: { ref: "abc\u0000" } });
    expect(res.status).toBe(404);
    expect(res.json!.code).toBe("not_found");
  });

  it.each(["city", "type", "transaction"])("GET /listings?%s=%00 is 422 in the query at that parameter", async (name) => {
    const { key } = await accountWithKey({ account: { locale: "en" } });
    const res = await call(catalog, { path: `/listings?${name}=a%00b`, key });
    expect(res.status, res.text).toBe(422);
    expect(res.json!.errors).toEqual([
      { in: "query", pointer: `/${name}`, code: "invalid", reason: "control_character", detail: expect.stringMatching(controlDetail) },
    ]);
  });
});
