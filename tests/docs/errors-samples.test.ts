import { describe, expect, it } from "vitest";
import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";

// The errors guide's samples run against the route handlers, and the answer the guide shows after the
// curl sample is what the API answers (the part it shows: the two errors among the others).

describe.each(locales)("the errors guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "errors");

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(["handle-errors.ts", "invalid-listing.sh"]);
  });

  it("invalid-listing.sh gets the 422 the guide shows", async () => {
    const { key } = await accountWithKey();
    const bridge = await startBridge();
    try {
      const answer = JSON.parse(
        await runShell(samples.get("invalid-listing.sh")!, {
          curlHome: bridge.curlHome,
          cwd: workFolder(),
          env: { LISTINGS_API_KEY: key },
        }),
      );
      const blocks = codeSamples(guideSource(locale, "errors"));
      const shown = JSON.parse(blocks[blocks.findIndex((block) => block.title === "invalid-listing.sh") + 1].code);
      const { errors, ...problem } = shown;
      expect(answer).toMatchObject(problem);
      expect(answer.errors).toEqual(expect.arrayContaining(errors));
    } finally {
      await bridge.close();
    }
  });

  it("handle-errors.ts prints the status, the code and each error's pointer and code", async () => {
    const { key } = await accountWithKey();
    const { printed } = await runTypeScript(samples.get("handle-errors.ts")!, { folder: workFolder(), env: { LISTINGS_API_KEY: key } });
    expect(printed[0]).toBe("422 validation_failed");
    expect(printed).toEqual(expect.arrayContaining(["/title min", "/description required"]));
  });
});
