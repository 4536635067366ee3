import { describe, expect, it } from "vitest";
import { check, valid } from "./fixtures";

const previous = valid.apartmentSale;
const patched = (changes: Record<string, unknown>) => check({ ...previous, ...changes }, { mode: "patch", previous });

describe("patch mode: the merge-patched document against the stored fields", () => {
  it("accepts an edit that keeps type and transaction", () => {
    expect(patched({ price: 179000, negotiable: true })).toMatchObject({ ok: true, value: { price: 179000, negotiable: true } });
  });

  it("refuses a change of type or transaction with invalid_value", () => {
    const result = patched({ type: "house", transaction: "rent" });
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { pointer: "/type", code: "invalid_value", params: { reason: "immutable", field: "type" } },
        { pointer: "/transaction", code: "invalid_value", params: { reason: "immutable", field: "transaction" } },
      ],
    });
  });

  it("judges the other fields against the stored type, not the attempted one", () => {
    const result = patched({ type: "land" });
    expect(result).toEqual({
      ok: false,
      errors: [{ pointer: "/type", code: "invalid_value", params: { reason: "immutable", field: "type" } }],
      warnings: [],
    });
  });

  it("a member removed by the patch (null) that the type requires is reported", () => {
    const merged: Record<string, unknown> = { ...previous };
    delete merged.floor;
    delete merged.title;
    const result = check(merged, { mode: "patch", previous });
    expect(result).toMatchObject({
      ok: false,
      errors: [
        { pointer: "/title", code: "required" },
        { pointer: "/floor", code: "required_if" },
      ],
    });
  });

  it("create mode ignores `previous`: type and transaction are whatever is sent", () => {
    expect(check(valid.house, { mode: "create", previous })).toMatchObject({ ok: true });
  });
});
