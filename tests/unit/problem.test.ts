import { describe, expect, it } from "vitest";
import { AppError, ValidationError, errorStatus } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";
import { messages } from "@/lib/base/i18n";

describe("problem rendering", () => {
  it("renders RFC 9457 members with a stable code and a translated title", () => {
    const problemEn = renderProblem(new AppError("listing_busy"), "en", "req_1");
    const problemRo = renderProblem(new AppError("listing_busy"), "ro", "req_1");
    expect(problemEn).toMatchObject({
      status: 409,
      code: "listing_busy",
      title: "Listing busy",
      type: "http://localhost:3000/problems/listing_busy",
    });
    expect(problemRo.code).toBe("listing_busy");
    expect(problemRo.title).not.toBe(problemEn.title);
  });

  it("lists validation errors with pointer, code and a detail filled from the catalogue", () => {
    const problem = renderProblem(
      new ValidationError([{ pointer: "/title", code: "min", params: { min: 10, unit: "characters" } }]),
      "en",
      "req_1",
    );
    expect(problem.status).toBe(422);
    expect(problem.errors).toEqual([{ pointer: "/title", code: "min", detail: "Below the minimum of 10 characters." }]);
  });

  it("hides anything that is not one of our errors behind an opaque 500", () => {
    const problem = renderProblem(new TypeError("relation secret_table does not exist"), "en", "req_42");
    expect(problem).toMatchObject({ status: 500, code: "internal_error", request_id: "req_42" });
    expect(JSON.stringify(problem)).not.toContain("secret_table");
  });

  it("has a title and detail for every error code in both languages", () => {
    for (const code of Object.keys(errorStatus) as (keyof typeof errorStatus)[]) {
      expect(messages("en").problems[code].title).toMatch(/\S/);
      expect(messages("ro").problems[code].title).toMatch(/\S/);
    }
  });
});

describe("field error details", () => {
  it("translates reasons given as catalogue keys and gives the key as `reason`", () => {
    const problem = renderProblem(
      new ValidationError([
        { pointer: "/status", code: "invalid", params: { reason: "read_only" } },
        { pointer: "/type", code: "invalid_value", params: { reason: "immutable", field: "type" } },
      ]),
      "en",
      "req_1",
    );
    expect(problem.errors).toEqual([
      { pointer: "/status", code: "invalid", reason: "read_only", detail: "This field is set by the service and cannot be written." },
      {
        pointer: "/type",
        code: "invalid_value",
        reason: "immutable",
        detail: "The type of a listing cannot be changed when editing; create a new listing instead.",
      },
    ]);
    const ro = renderProblem(
      new ValidationError([{ pointer: "/status", code: "invalid", params: { reason: "read_only" } }]),
      "ro",
      "req_1",
    );
    expect(ro.errors?.[0].detail).not.toBe(problem.errors?.[0].detail);
  });
});
