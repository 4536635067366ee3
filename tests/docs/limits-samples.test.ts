import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import { catalogue, locales } from "@/lib/base/i18n";
import { format } from "@/lib/base/i18n/format";
import { rateLimiter, rateRules } from "@/lib/infra/rate-limit";
import { accountWithKey } from "../support/fixtures";
import { createListing } from "../support/listings";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";

// The limits guide's samples against the route handlers: the rate-limit headers of a fresh key as the
// guide prints them, the 429 it shows once the key's minute is used up (the limiter's own counter,
// filled at once, so no minute boundary can split the test), and the client program that is handed
// that 429 instead of retrying.

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
});

/** Uses up the key's minute through the server's limiter. */
const exhaust = (keyId: string) => Promise.all(Array.from({ length: rateRules.key.limit }, () => rateLimiter().hit(keyId, rateRules.key)));

describe.each(locales)("the limits guide's samples (%s)", (locale) => {
  const sample = (title: string) => {
    const found = testedSamples(locale, "limits").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} limits guide`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "limits").keys()].sort()).toEqual(["rate-headers.sh", "retry-later.ts"]);
  });

  it("rate-headers.sh prints the three headers as the guide shows, for a key's first request", async () => {
    const { key } = await accountWithKey();
    const printed = lines(
      await runShell(sample("rate-headers.sh"), { curlHome: bridge.curlHome, cwd: workFolder(), env: { LISTINGS_API_KEY: key } }),
    );
    const shown = lines(shownAfter(locale, "limits", "rate-headers.sh"));
    expect(printed.slice(0, 2)).toEqual(shown.slice(0, 2));
    const reset = /^x-ratelimit-reset: (\d+)$/;
    expect(shown[2]).toMatch(reset);
    expect(Number(reset.exec(printed[2])![1])).toBeGreaterThanOrEqual(1);
    expect(Number(reset.exec(printed[2])![1])).toBeLessThanOrEqual(60);
    expect(printed).toHaveLength(3);
  });

  it("a key over its limit gets the 429 the guide shows, with Retry-After", async () => {
    const { key, keyId } = await accountWithKey();
    await exhaust(keyId);
    const refused = await api(key, "GET", `/ping?locale=${locale}`);
    const blocks = codeSamples(guideSource(locale, "limits"));
    const shown = JSON.parse(blocks.find((block) => block.lang === "json" && block.code.includes("too_many_requests"))!.code);
    const seconds = refused.headers.get("retry-after")!;
    expect(Number(seconds)).toBeGreaterThanOrEqual(1);
    expect(refused.status).toBe(429);
    // The guide shows 17 seconds; the answer says its own, in the catalogue's words for that number.
    expect(shown.detail).toBe(format(locale, catalogue(locale).api.problems.too_many_requests.detail, { limit: 300, retry_after: 17 }));
    expect(refused.json).toEqual({
      ...shown,
      detail: format(locale, catalogue(locale).api.problems.too_many_requests.detail, { limit: 300, retry_after: Number(seconds) }),
    });
  });

  it("retry-later.ts reads the listing while the key has requests left, and is handed the 429 once they are used up", async () => {
    const { key, keyId } = await accountWithKey();
    const listing = await createListing(key);
    const run = () =>
      runTypeScript(sample("retry-later.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key, LISTING_CODE: listing.code } });
    expect((await run()).printed).toEqual([`read ${listing.code} pending`]);
    await exhaust(keyId);
    const { printed } = await run();
    expect(printed).toHaveLength(1);
    const seconds = Number(/^limited: retry in (\d+) s$/.exec(printed[0])![1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
  });
});
