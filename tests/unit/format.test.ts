import { describe, expect, it } from "vitest";
import { format, formatParts } from "@/lib/base/i18n/format";

describe("format (ICU messages through FormatJS)", () => {
  it("fills arguments and picks the language's plural form, writing numbers as the language does", () => {
    const reports = "{count, plural, one {# sesizare deschisă} few {# sesizări deschise} other {# de sesizări deschise}}";
    expect(format("ro", reports, { count: 1 })).toBe("1 sesizare deschisă");
    expect(format("ro", reports, { count: 19 })).toBe("19 sesizări deschise");
    expect(format("ro", reports, { count: 1200 })).toBe("1.200 de sesizări deschise");
    expect(format("en", "{amount, number} {currency}", { amount: 125000, currency: "EUR" })).toBe("125,000 EUR");
  });

  it("shows text that looks like a tag as written", () => {
    expect(format("en", "Send it as Bearer <key>, {name}.", { name: "Ana" })).toBe("Send it as Bearer <key>, Ana.");
  });

  it("leaves an argument without a value visible instead of failing", () => {
    expect(format("en", "Photo {n} of {total}", { n: 2 })).toBe("Photo 2 of {total}");
  });

  it("gives the pieces in order when an argument is an element", () => {
    const link = { element: "a" };
    expect(formatParts("en", "Read {document} first.", { document: link })).toEqual(["Read ", link, " first."]);
    expect(formatParts("en", "No element here.", {})).toEqual(["No element here."]);
  });
});
