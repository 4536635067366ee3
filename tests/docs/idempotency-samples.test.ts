import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";

// The idempotency guide's samples run against the route handlers: one key sent twice creates one
// listing and the second answer is the first replayed, as the guide prints it; another body with the
// key is refused as it shows; the client program given its own key creates once.

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
});

const listingsOf = async (key: string) => (await api(key, "GET", "/account/listings?fields=code,external_ref")).json.data;

describe.each(locales)("the idempotency guide's samples (%s)", (locale) => {
  const sample = (title: string) => {
    const found = testedSamples(locale, "idempotency").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} idempotency guide`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "idempotency").keys()].sort()).toEqual(["create-once.sh", "create-with-key.ts", "reused-key.sh"]);
  });

  it("create-once.sh creates one listing and prints the replay as the guide shows; reused-key.sh then gets the 422 it shows", async () => {
    const { key } = await accountWithKey();
    const shell = (title: string) =>
      runShell(sample(title), { curlHome: bridge.curlHome, cwd: workFolder(), env: { LISTINGS_API_KEY: key } });

    const printed = lines(await shell("create-once.sh"));
    const [{ code }] = await listingsOf(key);
    const shown = lines(shownAfter(locale, "idempotency", "create-once.sh"));
    const shownCode = shown[0].split(" ").at(-1)!;
    expect(shownCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(printed).toEqual(shown.map((line) => line.replace(shownCode, code)));
    expect(await listingsOf(key)).toHaveLength(1);

    expect(JSON.parse(await shell("reused-key.sh"))).toEqual(JSON.parse(shownAfter(locale, "idempotency", "reused-key.sh")));
    expect(await listingsOf(key)).toHaveLength(1);
  });

  it("create-with-key.ts prints 201 true true and creates one listing", async () => {
    const { key } = await accountWithKey();
    const { printed } = await runTypeScript(sample("create-with-key.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key } });
    expect(printed).toEqual(["201 true true"]);
    expect(await listingsOf(key)).toEqual([{ code: expect.any(String), external_ref: "crm-10443" }]);
  });
});
