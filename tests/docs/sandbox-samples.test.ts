import { describe, expect, it } from "vitest";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { activeListing, createListing } from "../support/listings";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";

// The sandbox guide's samples run against the route handlers: the key's environment, the first pending
// listing found and approved with curl, another rejected with the client, each printing what the guide
// says, with the events it names.

async function get(key: string, pathname: string) {
  const response = await inProcessFetch(
    new Request(`http://localhost:3000/api/v1${pathname}`, { headers: { authorization: `Bearer ${key}`, accept: "application/json" } }),
  );
  return (await response.json()) as any;
}

describe.each(locales)("the sandbox guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "sandbox");

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(["approve-pending.sh", "reject.ts", "which-environment.sh"]);
  });

  it("tells the key's environment, approves the pending listing with curl and rejects another with the client", async () => {
    const { key } = await accountWithKey();
    const published = await activeListing(key);
    const pending = await createListing(key);
    const bridge = await startBridge();
    try {
      const shell = (title: string) =>
        runShell(samples.get(title)!, { curlHome: bridge.curlHome, cwd: workFolder(), env: { LISTINGS_API_KEY: key } });
      expect(await shell("which-environment.sh")).toBe("sandbox\n");

      const url = (await get(key, `/account/listings/${pending.code}`)).data.url;
      expect(await shell("approve-pending.sh")).toBe(`${pending.code} active ${url}\n`);
    } finally {
      await bridge.close();
    }

    const { printed } = await runTypeScript(samples.get("reject.ts")!, {
      folder: workFolder(),
      env: { LISTINGS_API_KEY: key, LISTING_CODE: published.code },
    });
    expect(printed).toEqual(["rejected poor_photos Fotografiile nu arată proprietatea."]);

    const events = (await get(key, "/events")).data as { type: string; data: Record<string, unknown> }[];
    expect(events.map((event) => [event.type, event.data.code])).toEqual([
      ["listing.published", published.code],
      ["listing.published", pending.code],
      ["listing.rejected", published.code],
    ]);
    expect(events[2].data).toMatchObject({ reason: "Fotografiile nu arată proprietatea.", rejection_codes: ["poor_photos"] });
  });
});
