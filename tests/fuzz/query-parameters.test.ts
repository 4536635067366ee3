import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { GET as accountListingByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { GET as accountListings } from "@/app/api/v1/account/listings/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { GET as catalogListing } from "@/app/api/v1/listings/[code]/route";
import { GET as catalog } from "@/app/api/v1/listings/route";
import { call } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { hostileString } from "./arbitraries";
import { expectSound, FuzzAccount, fuzzParameters, fuzzTimeout } from "./support";

// Issue 6, row 3: `GET /listings?city=%00` answered 500. Random query strings, raw percent-encoding
// included, against every GET of the catalog, the account's listings and the events, and random
// path parameters against the reads by code and by ref.

const RUNS = 80;

const lists = {
  "/listings": {
    handler: catalog,
    names: ["type", "transaction", "city", "price_min", "price_max", "rooms", "rooms_min", "rooms_max", "per_page", "cursor", "locale"],
  },
  "/account/listings": { handler: accountListings, names: ["status", "per_page", "fields", "cursor", "locale"] },
  "/events": { handler: eventsRoute, names: ["after", "limit", "locale"] },
} as const;

/** A query value as it travels: percent-encoded text, or raw escapes a browser would never send. */
const rawValue = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((text) => encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed())) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "%00",
      "a%00b",
      "%FF",
      "%C0%AF",
      "%ED%A0%80",
      "%ZZ",
      "%",
      "%2",
      "+",
      "%2B",
      "%20",
      "-1",
      "0",
      "1e3",
      "9".repeat(30),
      "NaN",
      "Infinity",
      "0x10",
      "1.5",
      "apartment",
      "sale",
      "active",
      "evt_0",
      "title,code",
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 100_000 }).map(String) },
);

const queryOf = (names: readonly string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...names) },
          { weight: 1, arbitrary: fc.constantFrom("%00", "x", "per_page%00", "") },
        ),
        rawValue,
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join("&"));

const textFilters = ["type", "transaction", "city"];

describe("query parameter sweep: every parameter of every list with U+0000 and broken escapes", () => {
  const cases = Object.entries(lists).flatMap(([path, { names }]) => names.map((name) => [path, name] as const));
  it.each(cases)("GET %s?%s=…", async (path, name) => {
    const account = await FuzzAccount.create();
    for (const value of ["%00", "a%00b", "%01", "%FF", "%ED%A0%80", "%ZZ", "%"]) {
      const res = await call(lists[path as keyof typeof lists].handler, { path: `${path}?${name}=${value}`, key: await account.key() });
      const what = `GET ${path}?${name}=${value} → ${res.status} ${res.text.slice(0, 300)}`;
      expectSound(res, what);
      expect([200, 422], what).toContain(res.status);
      if (res.status === 422) expect(res.json!.errors, what).toEqual([expect.objectContaining({ in: "query", pointer: `/${name}` })]);
      // A control character in a text filter can match nothing and cannot be compared: refused.
      if (textFilters.includes(name) && ["%00", "a%00b", "%01"].includes(value)) expect(res.status, what).toBe(422);
    }
  });
});

describe("fuzz: query parameters", () => {
  it(
    "never a 5xx on the lists; a refused parameter is a 422 in the query",
    async () => {
      const account = await FuzzAccount.create();
      await activeListing(await account.key());
      const endpoint = fc.constantFrom(...(Object.keys(lists) as (keyof typeof lists)[]));
      await fc.assert(
        fc.asyncProperty(
          endpoint.chain((path) => fc.tuple(fc.constant(path), queryOf(lists[path].names))),
          async ([path, query]) => {
            const res = await call(lists[path].handler, { path: `${path}?${query}`, key: await account.key() });
            const what = `GET ${path}?${query}`;
            expectSound(res, what);
            expect([200, 422], `${what} → ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
            if (res.status === 422) {
              for (const error of res.json!.errors)
                expect(error, what).toMatchObject({ in: "query", pointer: expect.stringMatching(/^\//) });
            }
          },
        ),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 60),
  );

  it(
    "never a 5xx on the reads by code and by ref: found or 404",
    async () => {
      const account = await FuzzAccount.create();
      const listing = await activeListing(await account.key());
      const reads = fc.constantFrom(
        { handler: accountListing, path: "/account/listings", param: "code" },
        { handler: catalogListing, path: "/listings", param: "code" },
        { handler: accountListingByRef, path: "/account/listings/ref", param: "ref" },
      );
      const segment = fc.oneof(
        hostileString,
        fc.constant(listing.code),
        fc.constant(`${listing.code}\u0000`),
        fc.constant(listing.code.toLowerCase()),
      );
      await fc.assert(
        fc.asyncProperty(reads, segment, async (read, value) => {
          const res = await call(read.handler as typeof accountListing, {
            path: `${read.path}/${encodeURIComponent(value.toWellFormed())}`,
            key: await account.key(),
            params: { [read.param]: value } as { code: string },
          });
          const what = `GET ${read.path}/{${JSON.stringify(value)}}`;
          expectSound(res, what);
          expect([200, 404], `${what} → ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 60),
  );
});
