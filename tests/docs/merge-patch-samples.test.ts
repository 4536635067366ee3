import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { locales } from "@/lib/base/i18n";
import type { ListingDetail, ListingWrite } from "@/sdk/src/index";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { activeListing, createListing, validApartment } from "../support/listings";
import { eq } from "drizzle-orm";
import { database } from "@/db";
import { listingImports } from "@/db/schema";
import { runImports } from "../imports/support";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";

// The merge patch guide's samples run against the route handlers as an integrator runs them: what
// each prints is what the guide shows after it, the fields the patch leaves out stay as they were,
// and the client program's retry keeps a change another program made between its read and its write.

type AddAmenity = {
  editListing: (code: string, change: (listing: ListingDetail) => ListingWrite) => Promise<{ data: ListingDetail }>;
};

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
});

describe.each(locales)("the merge patch guide's samples (%s)", (locale) => {
  const sample = (title: string) => {
    const found = testedSamples(locale, "merge-patch").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} merge patch guide`);
    return found;
  };
  const shell = (title: string, env: Record<string, string>) =>
    runShell(sample(title), { curlHome: bridge.curlHome, cwd: workFolder(), env });

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "merge-patch").keys()].sort()).toEqual(
      ["add-amenity.ts", "bulk-import.sh", "edit-listing.sh", "import-results.sh", "stale-etag.sh", "upsert-by-ref.sh"].sort(),
    );
  });

  it("edit-listing.sh applies the patch as the guide shows; stale-etag.sh, with the version read before, gets the 412 it shows", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key, validApartment({ bathrooms: 2, heating_types: ["gas_boiler", "underfloor_heating"] }));
    const env = { LISTINGS_API_KEY: key, LISTING_CODE: listing.code };

    expect(JSON.parse(await shell("edit-listing.sh", env))).toEqual(JSON.parse(shownAfter(locale, "merge-patch", "edit-listing.sh")));
    const edited = (await api(key, "GET", `/account/listings/${listing.code}`)).json.data;
    expect(edited).toMatchObject({ title: validApartment().title, status: "pending", facts: { bedrooms: 2, floor: "4" } });
    expect(edited.facts).not.toHaveProperty("bathrooms");

    const refused = JSON.parse(await shell("stale-etag.sh", { ...env, ETAG: listing.etag }));
    expect(refused).toEqual(JSON.parse(shownAfter(locale, "merge-patch", "stale-etag.sh")));
    expect((await api(key, "GET", `/account/listings/${listing.code}`)).json.data).toMatchObject({ price: 179000, etag: edited.etag });
  });

  it("add-amenity.ts adds to the list it read, 202 for a published listing; after a 412 it makes the list again from a new read", async () => {
    const { key } = await accountWithKey();
    const pending = await createListing(key, validApartment({ features: ["internet", "fridge"] }));
    const run = (code: string) =>
      runTypeScript<AddAmenity>(sample("add-amenity.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key, LISTING_CODE: code } });

    const { module, printed } = await run(pending.code);
    expect(printed).toEqual(["200 internet,fridge,air_conditioning"]);

    const published = await activeListing(key, validApartment({ features: ["internet", "fridge"] }));
    expect((await run(published.code)).printed).toEqual(["202 internet,fridge"]);

    // Another program adds an amenity between the sample's read and its write.
    let interfered = false;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method === "PATCH" && !interfered) {
        interfered = true;
        const other = await api(key, "PATCH", `/listings/${pending.code}`, {
          features: ["internet", "fridge", "air_conditioning", "dishwasher"],
        });
        expect(other.status).toBe(200);
      }
      return inProcessFetch(request);
    });
    try {
      const { data } = await module.editListing(pending.code, (listing) => ({ features: [...listing.features, "washing_machine"] }));
      expect(data.features).toEqual(["internet", "fridge", "air_conditioning", "dishwasher", "washing_machine"]);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(interfered).toBe(true);
  });

  it("upsert-by-ref.sh creates the listing, then the same request changes nothing, as the guide shows", async () => {
    const { key } = await accountWithKey();
    expect(lines(await shell("upsert-by-ref.sh", { LISTINGS_API_KEY: key }))).toEqual(
      lines(shownAfter(locale, "merge-patch", "upsert-by-ref.sh")),
    );
    const listed = await api(key, "GET", "/account/listings?fields=code,external_ref");
    expect(listed.json.data).toEqual([{ code: expect.any(String), external_ref: "crm-10442" }]);
  });

  it("bulk-import.sh queues the import (202); import-results.sh then shows each line's outcome as the guide does", async () => {
    const { key, account } = await accountWithKey();
    expect(lines(await shell("bulk-import.sh", { LISTINGS_API_KEY: key }))).toEqual(
      lines(shownAfter(locale, "merge-patch", "bulk-import.sh")),
    );
    await runImports();
    const db = (await database()).connection;
    const [{ id }] = await db.select({ id: listingImports.id }).from(listingImports).where(eq(listingImports.accountId, account.id));
    const printed = JSON.parse(await shell("import-results.sh", { LISTINGS_API_KEY: key, IMPORT_ID: id }));
    const [created] = (await api(key, "GET", "/account/listings?fields=code,external_ref")).json.data;
    expect(created.external_ref).toBe("crm-20001");
    // The import's id and the new listing's code are this run's own; everything else is as shown.
    const shown = JSON.parse(shownAfter(locale, "merge-patch", "import-results.sh"));
    shown.data.id = id;
    shown.data.results[0].code = created.code;
    expect(printed).toEqual(shown);
  });
});
