import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { runShell, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";
import { restoreEnv, setEnv } from "../support/env";

// The versioning guide's samples against the route handlers: the release and the retired codes of the
// vocabulary as the guide prints them, a retired code accepted with its warning and stored as its
// successor, and the withdrawal check, without an announcement and with the one the guide shows
// (the three API_V1_* settings an operator sets).

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
  restoreEnv();
});

describe.each(locales)("the versioning guide's samples (%s)", (locale) => {
  const shell = (title: string, env: Record<string, string> = {}) => {
    const found = testedSamples(locale, "versioning").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} versioning guide`);
    return runShell(found, { curlHome: bridge.curlHome, cwd: workFolder(), env });
  };
  const shown = (title: string) => lines(shownAfter(locale, "versioning", title));

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "versioning").keys()].sort()).toEqual(
      ["api-version.sh", "check-deprecation.sh", "retired-codes.sh", "send-retired-code.sh"].sort(),
    );
  });

  it("api-version.sh and retired-codes.sh print what the guide shows", async () => {
    expect(lines(await shell("api-version.sh"))).toEqual(shown("api-version.sh"));
    expect(lines(await shell("retired-codes.sh"))).toEqual(shown("retired-codes.sh"));
  });

  it("send-retired-code.sh is accepted with the warning the guide shows, and a listing keeps the successor", async () => {
    const { key } = await accountWithKey();
    const answer = JSON.parse(await shell("send-retired-code.sh", { LISTINGS_API_KEY: key }));
    expect(answer).toEqual(JSON.parse(shownAfter(locale, "versioning", "send-retired-code.sh")));
    const created = await api(key, "POST", "/listings", validApartment({ heating_types: ["central_heating"] }));
    expect(created.json.data.facts.heating_types).toEqual(["district_heating"]);
  });

  it("check-deprecation.sh prints no announcement today, and the headers the guide shows once one is set", async () => {
    expect(lines(await shell("check-deprecation.sh"))).toEqual(["no withdrawal announced"]);
    setEnv({
      API_V1_DEPRECATED_AT: "2027-01-01T00:00:00Z",
      API_V1_SUNSET_AT: "2027-07-01T00:00:00Z",
      API_V1_DEPRECATION_LINK: "http://localhost:3000/docs/changelog",
    });
    try {
      const announced = lines(await shell("check-deprecation.sh"));
      const blocks = shown("check-deprecation.sh");
      expect(announced.sort()).toEqual(blocks.sort());
    } finally {
      restoreEnv();
    }
  });
});
