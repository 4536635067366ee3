import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locales } from "@/lib/base/i18n";
import { recordEvents } from "../events/support";
import { accountWithKey } from "../support/fixtures";
import { createListing } from "../support/listings";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";

// The pagination guide's samples walk every page of a real account against the route handlers: 125
// listings (two pages of 100), 510 events (two pages of 500). The curl walk and the client's
// `for await` see every listing once; the event poller prints each event once across its runs.

const listingCount = 125;

let bridge: Awaited<ReturnType<typeof startBridge>>;
let account: Promise<{ key: string; accountId: string; codes: string[] }>;

beforeAll(async () => {
  bridge = await startBridge();
  // One account for both languages: the samples only read it.
  account = (async () => {
    const { key, account: holder } = await accountWithKey();
    const codes: string[] = [];
    for (let i = 0; i < listingCount; i++) codes.push((await createListing(key)).code);
    await recordEvents(holder.id, 510);
    return { key, accountId: holder.id, codes };
  })();
});
afterAll(async () => {
  await bridge.close();
});

const eventIds = async (key: string) => {
  const ids: string[] = [];
  for (let after = ""; ;) {
    const { json } = await api(key, "GET", `/events?limit=500${after && `&after=${after}`}`);
    ids.push(...json.data.map((event: { id: string }) => event.id));
    if (!json.meta.next) return ids;
    after = json.meta.next;
  }
};

describe.each(locales)("the pagination guide's samples (%s)", (locale) => {
  const sample = (title: string) => {
    const found = testedSamples(locale, "pagination").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} pagination guide`);
    return found;
  };
  const shell = (title: string, key: string, cwd = workFolder()) =>
    runShell(sample(title), { curlHome: bridge.curlHome, cwd, env: { LISTINGS_API_KEY: key } });

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "pagination").keys()].sort()).toEqual(
      ["all-listings.sh", "all-listings.ts", "bad-cursor.sh", "poll-events.sh"].sort(),
    );
  });

  it("all-listings.sh prints every listing once, over two pages", async () => {
    const { key, codes } = await account;
    const printed = lines(await shell("all-listings.sh", key));
    expect(printed).toHaveLength(listingCount);
    for (const line of printed) expect(line).toMatch(/^[A-Z0-9]{8} pending$/);
    expect(printed.map((line) => line.split(" ")[0]).sort()).toEqual([...codes].sort());
  });

  it("all-listings.ts counts every listing with for await, as the guide says", async () => {
    const { key } = await account;
    const { printed } = await runTypeScript(sample("all-listings.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key } });
    // The guide names this output for an account of 125 listings.
    expect(printed).toEqual([`${listingCount} listings`]);
  });

  it("poll-events.sh prints every event once, oldest first, then only the new ones", async () => {
    const { key, accountId } = await account;
    const folder = workFolder();
    const all = await eventIds(key);
    expect(all.length).toBeGreaterThan(500);
    const first = lines(await shell("poll-events.sh", key, folder));
    expect(first).toEqual(all.map((id) => `${id} listing.paused`));
    expect(readFileSync(path.join(folder, "last-event-id"), "utf8").trim()).toBe(all.at(-1));

    expect(await shell("poll-events.sh", key, folder)).toBe("");
    const added = await recordEvents(accountId, 2);
    expect(lines(await shell("poll-events.sh", key, folder))).toEqual(added.map((event) => `${event.id} listing.paused`));
  });

  it("bad-cursor.sh gets the 422 the guide shows", async () => {
    const { key } = await account;
    expect(JSON.parse(await shell("bad-cursor.sh", key))).toEqual(JSON.parse(shownAfter(locale, "pagination", "bad-cursor.sh")));
  });
});

describe("a walk of the listings while one changes", () => {
  it("shows each listing once, and not the one changed ahead of the walk, as the guide says", async () => {
    const { key, codes } = await account;
    const first = await api(key, "GET", "/account/listings?per_page=100&fields=code");
    const seen: string[] = first.json.data.map((item: { code: string }) => item.code);
    const ahead = codes.find((code) => !seen.includes(code))!;
    expect((await api(key, "PATCH", `/listings/${ahead}`, { price: 123456 })).status).toBe(200);
    const second = await api(key, "GET", `/account/listings?per_page=100&fields=code&cursor=${first.json.meta.next_cursor}`);
    seen.push(...second.json.data.map((item: { code: string }) => item.code));
    expect(second.json.meta.next_cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(ahead);
    expect(seen).toHaveLength(listingCount - 1);
    expect((await api(key, "GET", "/account/listings?per_page=1&fields=code")).json.data).toEqual([{ code: ahead }]);
  });
});
