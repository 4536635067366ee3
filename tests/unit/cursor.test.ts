import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  decodeCursor,
  decodeKeyset,
  decodeSequenceCursor,
  encodeCursor,
  encodeKeyset,
  encodeSequenceCursor,
  isCursorRefusal,
  isCursorText,
  toSequencePage,
} from "@/lib/base/cursor";
import { AppError, ValidationError } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";

const b64 = (text: string) => Buffer.from(text).toString("base64url");

function thrownBy(decode: () => unknown): unknown {
  try {
    decode();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** What a decoder threw, as the API would answer it. */
function refusal(decode: () => unknown) {
  const error = thrownBy(decode);
  expect(error).toBeInstanceOf(ValidationError);
  const { status, errors } = renderProblem(error as ValidationError, "en", "req_1");
  return { status, errors };
}

const unknownCursor = {
  status: 422,
  errors: [{ pointer: "/cursor", in: "query", code: "invalid", reason: "unknown_cursor", detail: "Not a cursor given by this API." }],
};

describe("the cursor codec", () => {
  it("round-trips a small JSON position through base64url text in the caller's shape", () => {
    const shape = z.object({ n: z.number(), s: z.string() });
    const cursor = encodeCursor({ n: 7, s: "ă/+?" });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, shape)).toEqual({ n: 7, s: "ă/+?" });
    expect(decodeCursor(undefined, shape)).toBeUndefined();
  });

  it.each([
    ["empty", ""],
    ["not base64url", "not a cursor!"],
    ["padded", `${b64('{"a":1}')}==`],
    ["the other base64 alphabet", "eyJhIjo+MX0/"],
    ["too long", "a".repeat(501)],
    ["not JSON", "not-a-cursor"],
    ["JSON of another shape", b64('{"x":1}')],
    ["a JSON array", b64("[1]")],
    ["JSON null", b64("null")],
    ["a prototype key", b64('{"__proto__":{"a":1}}')],
    ["a negative position", b64('{"a":-1}')],
    ["a fraction", b64('{"a":1.5}')],
    ["a position as text", b64('{"a":"1"}')],
    ["last as true", b64('{"l":true}')],
  ])("refuses a cursor that is %s: 422 unknown_cursor at /cursor, in the query", (_, value) => {
    expect(refusal(() => decodeSequenceCursor(value))).toEqual(unknownCursor);
    expect(refusal(() => decodeKeyset(value, z.number().int().positive()))).toEqual(unknownCursor);
  });

  it("tells a cursor refusal from other errors", () => {
    expect(isCursorRefusal(thrownBy(() => decodeSequenceCursor("!!")))).toBe(true);
    // The services' own bound on the parameter (`max`) is a refusal of the cursor too.
    expect(isCursorRefusal(new ValidationError([{ pointer: "/cursor", code: "max", params: { max: 500, unit: "characters" } }]))).toBe(
      true,
    );
    expect(isCursorRefusal(new ValidationError([{ pointer: "/limit", code: "invalid", params: { reason: "unknown_cursor" } }]))).toBe(
      false,
    );
    expect(isCursorRefusal(new AppError("not_found"))).toBe(false);
    expect(isCursorRefusal(new Error("boom"))).toBe(false);
  });

  it("calls cursor text what a page may pass on: base64url, 1–500 characters", () => {
    expect(isCursorText(encodeSequenceCursor({ after: 1 }))).toBe(true);
    expect(isCursorText("a".repeat(500))).toBe(true);
    expect(["", "a".repeat(501), "not a cursor", "not+a+cursor", "abc="].map(isCursorText)).toEqual([false, false, false, false, false]);
  });
});

describe("keyset cursors", () => {
  it("write the same text as before the codec was shared, and read it back to the microsecond", () => {
    const position = { at: "2026-11-25T10:00:00.123456Z", id: 42 };
    expect(encodeKeyset(position)).toBe(b64('{"t":"2026-11-25T10:00:00.123456Z","i":42}'));
    expect(decodeKeyset(encodeKeyset(position), z.number().int().positive())).toEqual(position);
    expect(decodeKeyset(encodeKeyset({ at: position.at, id: "dlv_1" }), z.string().max(100))).toEqual({ at: position.at, id: "dlv_1" });
  });

  it("refuse a timestamp that is no instant, or an id of another shape", () => {
    for (const value of [
      { t: "2026-13-01T00:00:00.000000Z", i: 1 },
      { t: "2026-02-30T00:00:00.000000Z", i: 1 },
      { t: "2026-01-01T00:00:00.000Z", i: 1 },
      { t: "2026-01-01T00:00:00.000000Z", i: "1; drop table api_log" },
    ]) {
      expect(refusal(() => decodeKeyset(b64(JSON.stringify(value)), z.number().int().positive()))).toEqual(unknownCursor);
    }
  });
});

describe("sequence cursors", () => {
  it("write the same text the API has always given (integrators' cursors keep working)", () => {
    expect(encodeSequenceCursor({ after: 12 })).toBe(b64('{"a":12}'));
    expect(encodeSequenceCursor({ before: 34 })).toBe(b64('{"b":34}'));
    expect(encodeSequenceCursor({ last: true })).toBe("eyJsIjoxfQ");
  });

  it("read back each kind", () => {
    for (const cursor of [{ after: 0 }, { before: 9 }, { last: true as const }]) {
      expect(decodeSequenceCursor(encodeSequenceCursor(cursor))).toEqual(cursor);
    }
    expect(decodeSequenceCursor(undefined)).toBeUndefined();
  });

  it("turn rows fetched one past the page into a page, either way", () => {
    const rows = (...seqs: number[]) => seqs.map((seq) => ({ seq }));
    const seq = (row: { seq: number }) => row.seq;
    expect(toSequencePage(rows(9, 8, 7), 2, undefined, seq)).toEqual({ items: rows(9, 8), next: { after: 8 }, prev: undefined });
    expect(toSequencePage(rows(7, 6), 2, { after: 8 }, seq)).toEqual({ items: rows(7, 6), next: undefined, prev: { before: 7 } });
    // Fetched oldest first from `before`: turned around, newest first.
    expect(toSequencePage(rows(8, 9, 10), 2, { before: 7 }, seq)).toEqual({ items: rows(9, 8), prev: { before: 9 }, next: { after: 8 } });
    expect(toSequencePage(rows(1, 2), 2, { last: true }, seq)).toEqual({ items: rows(2, 1), prev: undefined, next: undefined });
    expect(toSequencePage([], 2, { after: 1 }, seq)).toEqual({ items: [] });
  });
});
