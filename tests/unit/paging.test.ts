import { describe, expect, it } from "vitest";
import { encodeSequenceCursor } from "@/lib/base/cursor";
import { AppError, ValidationError } from "@/lib/base/errors";
import { forwardPaging, givenCursor, pageAt, pageHref, twoWayPaging } from "@/lib/adapters/portal/paging";

const unknownCursor = new ValidationError([{ pointer: "/cursor", in: "query", code: "invalid", params: { reason: "unknown_cursor" } }]);

describe("givenCursor", () => {
  it("reads the first value, trimmed; empty is none", () => {
    expect(givenCursor({ cursor: "abc_-1" })).toEqual({ cursor: "abc_-1", malformed: false });
    expect(givenCursor({ cursor: [" abc ", "def"] })).toEqual({ cursor: "abc", malformed: false });
    expect(givenCursor({})).toEqual({ malformed: false });
    expect(givenCursor({ cursor: "  " })).toEqual({ malformed: false });
  });

  it("leaves out and flags what cannot be a cursor", () => {
    for (const cursor of ["not a cursor!", "not+a+cursor", "a".repeat(501)]) expect(givenCursor({ cursor })).toEqual({ malformed: true });
  });
});

describe("pageAt", () => {
  it("reads the page at the cursor, or the first page flagged when the service refuses the cursor", async () => {
    const load = async (cursor: string | undefined) => {
      if (cursor === "old") throw unknownCursor;
      return `page ${cursor ?? "first"}`;
    };
    expect(await pageAt(undefined, load)).toEqual({ page: "page first", refused: false });
    expect(await pageAt("abc", load)).toEqual({ page: "page abc", cursor: "abc", refused: false });
    expect(await pageAt("old", load)).toEqual({ page: "page first", refused: true });
  });

  it("lets every other error through", async () => {
    const failing = async () => {
      throw new AppError("not_found");
    };
    await expect(pageAt("abc", failing)).rejects.toThrow(AppError);
    const otherField = async () => {
      throw new ValidationError([{ pointer: "/limit", code: "min", params: { min: 1, unit: "number" } }]);
    };
    await expect(pageAt("abc", otherField)).rejects.toThrow(ValidationError);
  });
});

describe("pageHref", () => {
  it("keeps the query's order, puts the cursor last, leaves out empty values and keeps `/` readable", () => {
    expect(pageHref("/listings", { city: "Cluj/Napoca", type: undefined, per_page: "2" }, "eyJhIjoxfQ")).toBe(
      "/listings?city=Cluj/Napoca&per_page=2&cursor=eyJhIjoxfQ",
    );
    expect(pageHref("/listings", { q: "a b&c=d#e" })).toBe("/listings?q=a+b%26c%3Dd%23e");
  });

  it("is the bare path without a query", () => {
    expect(pageHref("/moderation", {})).toBe("/moderation");
    expect(pageHref("/moderation", { status: "" }, undefined)).toBe("/moderation");
  });
});

describe("forwardPaging", () => {
  const href = (cursor?: string) => pageHref("/settings/api/activity", {}, cursor);

  it("links the next page, and the first once a cursor led here", () => {
    expect(forwardPaging(href, { next: "n1", items: [1] })).toEqual({
      first: undefined,
      next: "/settings/api/activity?cursor=n1",
      pastLast: false,
    });
    expect(forwardPaging(href, { cursor: "n1", next: null, items: [1] })).toEqual({
      first: "/settings/api/activity",
      next: undefined,
      pastLast: false,
    });
  });

  it("tells a page past the last item from an empty list", () => {
    expect(forwardPaging(href, { cursor: "n1", items: [] }).pastLast).toBe(true);
    expect(forwardPaging(href, { items: [] }).pastLast).toBe(false);
  });
});

describe("twoWayPaging", () => {
  const href = (cursor?: string) => pageHref("/listings", { city: "Iași" }, cursor);

  it("links first and previous when there is a previous page, next when there is a next one", () => {
    expect(twoWayPaging(href, { items: [], next: { after: 5 } })).toEqual({
      first: undefined,
      previous: undefined,
      next: `/listings?city=Ia%C8%99i&cursor=${encodeSequenceCursor({ after: 5 })}`,
    });
    expect(twoWayPaging(href, { items: [], prev: { before: 9 } })).toEqual({
      first: "/listings?city=Ia%C8%99i",
      previous: `/listings?city=Ia%C8%99i&cursor=${encodeSequenceCursor({ before: 9 })}`,
      next: undefined,
    });
    expect(twoWayPaging(href, undefined)).toEqual({});
  });
});
