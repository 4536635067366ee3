import { describe, expect, it } from "vitest";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { runTypeScript, testedSamples, workFolder } from "./samples";

// The lifecycle guide's program runs against the route handlers: it prints what the guide says it
// prints, and the events it says the webhook receives are the ones GET /events holds.

describe.each(locales)("the lifecycle guide's sample (%s)", (locale) => {
  const samples = testedSamples(locale, "lifecycle");

  it("lifecycle.ts walks a listing from pending to sold, with the events the guide names", async () => {
    expect([...samples.keys()]).toEqual(["lifecycle.ts"]);
    const { key } = await accountWithKey();
    const { printed } = await runTypeScript(samples.get("lifecycle.ts")!, { folder: workFolder(), env: { LISTINGS_API_KEY: key } });
    expect(printed).toEqual(["created pending", "approved active", "paused paused", "resumed active", "rented sold"]);
    const response = await inProcessFetch(
      new Request("http://localhost:3000/api/v1/events", { headers: { authorization: `Bearer ${key}`, accept: "application/json" } }),
    );
    const { data } = (await response.json()) as { data: { type: string }[] };
    expect(data.map((event) => event.type)).toEqual(["listing.published", "listing.paused", "listing.reactivated", "listing.sold"]);
  });
});
