import { describe, expect, it } from "vitest";
import { writeFieldNames } from "@/lib/domain/vocabulary";
import { check, valid, variant, type Fixture } from "./fixtures";

const oddValues: unknown[] = [
  null,
  "",
  " ",
  "x",
  0,
  -1,
  1.5,
  1e20,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  [],
  {},
  [1],
  ["x"],
  [[1, 2]],
  { a: 1 },
  [{}],
  [null],
  [{ label: 5, floors: "x", price: "1" }],
  [{ label: "A", floors: { from: 1 } }],
  [[1, 2], [3, 4], [5]],
];

describe("any value in any field gives a result, never an exception", () => {
  it.each(Object.keys(valid) as Fixture[])("%s", (fixture) => {
    for (const field of writeFieldNames) {
      for (const value of oddValues) {
        const result = check(variant(fixture, { [field]: value }));
        if (result.ok) continue;
        for (const error of result.errors) {
          expect(error.pointer, `${field} = ${JSON.stringify(value)}`).toMatch(/^\/[^/]/);
          expect(error.code).toMatch(/^[a-z_]+$/);
        }
      }
    }
  });
});
