import { describe, expect, it } from "vitest";
import { fromAcceptLanguage, resolveLocale } from "@/lib/base/i18n";

describe("locale resolution", () => {
  it("orders query > account language > Accept-Language > ro", () => {
    expect(resolveLocale({ query: "en", account: "ro", acceptLanguage: "ro" })).toBe("en");
    expect(resolveLocale({ account: "en", acceptLanguage: "ro" })).toBe("en");
    expect(resolveLocale({ account: null, acceptLanguage: "en-GB,ro;q=0.5" })).toBe("en");
    expect(resolveLocale({})).toBe("ro");
  });

  it.each([
    ["ro-RO,en;q=0.9", "ro"],
    ["de-DE,en;q=0.4,ro;q=0.3", "en"],
    ["fr,de", undefined],
    ["en;q=0, ro;q=0.1", "ro"],
    ["*", "ro"],
    ["EN", "en"],
    ["en-GB;q=0.8, fr, ro-RO;q=0.5", "en"],
    ["ro;q=abc, en;q=0.2", "en"],
  ])("reads Accept-Language %j as %j", (header, expected) => {
    expect(fromAcceptLanguage(header)).toBe(expected);
  });
});
