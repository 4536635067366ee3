import { describe, expect, it } from "vitest";
import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { runShell, startBridge, testedSamples, workFolder } from "./samples";

// The authentication guide's curl samples run against the route handlers, and each answer the guide
// shows after a sample is part of what the API answers.

const shownAfter = (locale: "ro" | "en", title: string) => {
  const blocks = codeSamples(guideSource(locale, "authentication"));
  return JSON.parse(blocks[blocks.findIndex((block) => block.title === title) + 1].code);
};

describe.each(locales)("the authentication guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "authentication");

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(["check-key.sh", "missing-permission.sh"]);
  });

  it("check-key.sh: GET /ping answers what the guide shows; missing-permission.sh: the 403 it shows", async () => {
    const { key } = await accountWithKey({ permissions: ["listings:read", "listings:write", "media:write"] });
    const { key: readOnly } = await accountWithKey({ permissions: ["listings:read"] });
    const bridge = await startBridge();
    try {
      const env = { LISTINGS_API_KEY: key, READ_ONLY_KEY: readOnly };
      const run = (title: string) => runShell(samples.get(title)!, { curlHome: bridge.curlHome, cwd: workFolder(), env });
      const ping = JSON.parse(await run("check-key.sh"));
      const shownPing = shownAfter(locale, "check-key.sh");
      expect(ping).toMatchObject({ data: { ...shownPing.data, key: { permissions: shownPing.data.key.permissions } } });
      const refused = JSON.parse(await run("missing-permission.sh"));
      expect(refused).toMatchObject(shownAfter(locale, "missing-permission.sh"));
    } finally {
      await bridge.close();
    }
  });
});
