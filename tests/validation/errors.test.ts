import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";
import { crossFieldCodes, fieldCodes } from "./cases";
import { check, valid, variant } from "./fixtures";

describe("error reporting", () => {
  it("gives several errors for one field when several rules fail", () => {
    const result = check(variant("apartmentSale", { title: "aaaa" }));
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { pointer: "/title", code: "meaningful_text" },
        { pointer: "/title", code: "min", params: { min: 10 } },
      ],
    });
  });

  it("orders errors by field (`writeFieldNames`), then pointer, then code, whatever the body's order", () => {
    const body = { status: "x", ...variant("apartmentSale", { price: 0, rooms: 0, title: 7, orientations: ["a", "b"] }) };
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    const first = check(body);
    const second = check(reversed);
    expect(first).toEqual(second);
    if (first.ok) throw new Error("expected errors");
    expect(first.errors.map((error) => `${error.pointer} ${error.code}`)).toEqual([
      "/title string",
      "/rooms between",
      "/price between",
      "/orientations/0 enum",
      "/orientations/1 enum",
      "/status invalid",
    ]);
  });

  it("refuses a body that is not an object", () => {
    expect(check([] as unknown as Record<string, unknown>)).toEqual({
      ok: false,
      errors: [{ pointer: "", code: "object" }],
      warnings: [],
    });
  });

  it("reports a too long list once, without parsing its items", () => {
    const result = check(variant("apartmentSale", { features: Array.from({ length: 101 }, (_, i) => `f${i}`) }));
    expect(result).toMatchObject({ ok: false, errors: [{ pointer: "/features", code: "max", params: { max: 100 } }] });
  });

  it("escapes member names in pointers (RFC 6901)", () => {
    const result = check({ ...valid.apartmentSale, "a/b~c": 1 });
    expect(result).toMatchObject({ ok: true, warnings: [{ pointer: "/a~1b~0c", code: "unknown_field" }] });
  });
});

describe("every produced error has a detail in both languages with its placeholders filled", () => {
  const errors = [...fieldCodes, ...crossFieldCodes].flatMap((c) => {
    const result = check(c.document, c.options);
    return result.ok ? [] : result.errors;
  });

  it.each(["en", "ro"] as const)("%s", (locale) => {
    const rendered = renderProblem(new ValidationError(errors), locale, "req_1").errors!;
    rendered.forEach((error, index) => {
      expect(error.detail, `${error.pointer} ${error.code}`).toBeTypeOf("string");
      expect(error.detail, `${error.pointer} ${error.code} ${JSON.stringify(errors[index].params)}`).not.toMatch(/\{\w+\}/);
    });
  });
});

describe("unit type rows", () => {
  it("report their members in the row's table order", () => {
    const result = check(variant("development", { unit_types: [{ label: 5, floors: "x", price: "1" }] }));
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { pointer: "/unit_types/0/label", code: "string" },
        { pointer: "/unit_types/0/floors", code: "object" },
        { pointer: "/unit_types/0/price", code: "integer" },
      ],
    });
  });
});
