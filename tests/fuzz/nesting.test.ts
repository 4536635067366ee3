import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { PUT as putByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { POST as validateRoute } from "@/app/api/v1/listings/validate/route";
import { maxNestingDepth } from "@/lib/adapters/http/body";
import { call } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { valid } from "../validation/fixtures";
import { errorKeys, expectSound, FuzzAccount, fuzzParameters, fuzzTimeout } from "./support";

// Issue 6, row 1: a member nested 10 000 deep made the create answer a bare 500 after writing the
// listing. Nesting depths up to 10 000, as arrays or objects, in an unknown member, inside known
// fields, or as the whole body, against every listing write.

const RUNS = 40;

/** JSON text of `depth` nested arrays or objects around `core`, built as text: no recursion anywhere. */
const nested = (depth: number, shape: "array" | "object", core = "1") =>
  shape === "array" ? `${"[".repeat(depth)}${core}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}${core}${"}".repeat(depth)}`;

/** Where the nesting goes, and how deep the whole body then is (the body's own object counts as 1). */
const placements = {
  extra: (inner: string, depth: number) => ({ text: withMember(validApartment(), "extra", inner), depth: depth + 1 }),
  features: (inner: string, depth: number) => ({ text: withMember(validApartment(), "features", `[${inner}]`), depth: depth + 2 }),
  unit_type: (inner: string, depth: number) => ({
    text: withMember(valid.development, "unit_types", `[{"label":"2 camere","rooms":${inner}}]`),
    depth: depth + 3,
  }),
  root: (inner: string, depth: number) => ({ text: inner, depth }),
};

function withMember(body: Record<string, unknown>, name: string, json: string): string {
  const rest = JSON.stringify({ ...body, [name]: undefined });
  return `${rest.slice(0, -1)},${JSON.stringify(name)}:${json}}`;
}

const depth = fc.oneof(
  fc.constantFrom(
    1,
    maxNestingDepth - 3,
    maxNestingDepth - 2,
    maxNestingDepth - 1,
    maxNestingDepth,
    maxNestingDepth + 1,
    1000,
    7000,
    10_000,
  ),
  fc.integer({ min: 1, max: 10_000 }),
);

describe("fuzz: nesting depth", () => {
  it(
    "never a 5xx; deeper than the limit is 400 nesting_too_deep and writes nothing; validate and create agree",
    async () => {
      const account = await FuzzAccount.create();
      const first = await call(createRoute, { path: "/listings", method: "POST", key: await account.key(), body: validApartment() });
      const code = first.json!.data.code as string;
      let refs = 0;
      await fc.assert(
        fc.asyncProperty(
          depth,
          fc.constantFrom<"array" | "object">("array", "object"),
          fc.constantFrom(...(Object.keys(placements) as (keyof typeof placements)[])),
          async (levels, shape, placement) => {
            const { text, depth: total } = placements[placement](nested(levels, shape), levels);
            const what = `${levels} ${shape}s in ${placement} (body depth ${total})`;
            const request = async (path: string, method: string) => ({
              path,
              method,
              key: await account.key(),
              rawBody: text,
              headers: { "content-type": "application/json" },
            });

            const before = await account.writes();
            const validated = await call(validateRoute, await request("/listings/validate", "POST"));
            const created = await call(createRoute, await request("/listings", "POST"));
            const ref = `deep-${++refs}`;
            const upserted = await call(putByRef, { ...(await request(`/listings/ref/${ref}`, "PUT")), params: { ref } });
            const patched = await call(PATCH, { ...(await request(`/listings/${code}`, "PATCH")), params: { code } });
            for (const [name, res] of Object.entries({ validated, created, upserted, patched })) {
              expectSound(res, `${name}: ${what}`);
              if (total > maxNestingDepth)
                expect({ name, status: res.status, code: res.json?.code }).toEqual({ name, status: 400, code: "nesting_too_deep" });
              else expect(res.json?.code, `${name}: ${what}`).not.toBe("nesting_too_deep");
            }
            expect(validated.status === 200, what).toBe(created.status === 201);
            if (created.status !== 201) expect(errorKeys(created), what).toEqual(errorKeys(validated));
            if (total > maxNestingDepth) expect(await account.writes(), `${what} wrote something`).toEqual(before);
          },
        ),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 200),
  );
});
