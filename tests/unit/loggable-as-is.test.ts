import { describe, expect, it } from "vitest";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { loggable, loggableAsIs } from "@/lib/base/redact";

const text = (value: unknown) => JSON.stringify(value);

describe("loggableAsIs: the API log keeps a response's text without walking it", () => {
  it("says yes only where the walk would leave the value as it is", () => {
    const plain = [
      { data: exampleApartment, warnings: [] },
      { data: [{ code: "AB12CD34", price: 185000, tags: ["ș", "ț", "😀"] }], meta: { next: null } },
      { links: { first: "https://portal.example/api/v1/account/listings", next: null } },
      [1, -0, 1e21, true, null, "\t\n"],
    ];
    for (const value of plain) {
      expect(loggableAsIs(text(value))).toBe(true);
      expect(text(loggable(value))).toBe(text(value));
    }
  });

  it("says no for a secret member, a secret string, an unstorable character or a link with a query", () => {
    const walked = [
      { data: { secret: "s" } },
      { client_secret: "abc" },
      { data: { token_type: "Bearer" } },
      { note: "svc_test_AbC123" },
      { note: "whsec_c2VjcmV0" },
      { note: "nul \u0000 here" },
      { note: "lone \ud800 surrogate" },
      { links: { next: "https://portal.example/api/v1/events?after=5&key=k" } },
    ];
    for (const value of walked) expect(loggableAsIs(text(value)), text(value)).toBe(false);
    // What the walk then keeps differs from what was sent.
    expect(text(loggable({ client_secret: "abc" }))).toBe('{"client_secret":"[redacted]"}');
    expect(text(loggable({ note: "nul \u0000 here" }))).toBe('{"note":"nul \uFFFD here"}');
  });

  it("errs towards the walk: a word that only looks like a secret's name in a value is walked too", () => {
    const value = { data: { description: "Parcare cu token de acces" } };
    expect(loggableAsIs(text(value))).toBe(false);
    expect(text(loggable(value))).toBe(text(value));
  });
});
