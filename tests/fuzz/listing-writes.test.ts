import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { PUT as putByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { POST as validateRoute } from "@/app/api/v1/listings/validate/route";
import { call } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { hostileString, listingBody, mergePatch } from "./arbitraries";
import { describeBody, errorKeys, expectSound, FuzzAccount, fuzzParameters, fuzzTimeout, type Answer } from "./support";

// Issue 6: random and mutated listing bodies against every listing write, through the real route
// handlers. Properties: never a 5xx; every error is problem+json with a request id; a 4xx writes
// nothing (no listing, no event, no idempotency record); validate and create agree on every body.

const RUNS = 60;
let idempotencyKeys = 0;

const create = async (account: FuzzAccount, body: unknown, headers: Record<string, string> = {}) =>
  call(createRoute, { path: "/listings", method: "POST", key: await account.key(), body, headers });
const validate = async (account: FuzzAccount, body: unknown) =>
  call(validateRoute, { path: "/listings/validate", method: "POST", key: await account.key(), body });

/** The same body refused by validate and by create: the same pointers and codes. */
function expectAgreement(validated: Answer, created: Answer, body: unknown) {
  const context = `body ${describeBody(body)}\nvalidate → ${validated.status} ${validated.text.slice(0, 300)}\ncreate → ${created.status} ${created.text.slice(0, 300)}`;
  expect(validated.status === 200, context).toBe(created.status === 201);
  if (validated.status === 200) return;
  expect(created.status, context).toBe(validated.status);
  expect(errorKeys(created), context).toEqual(errorKeys(validated));
  expect(created.json?.code, context).toBe(validated.json?.code);
}

describe("fuzz: POST /listings and POST /listings/validate", () => {
  it(
    "agree on every body, never answer 5xx, and a refused create writes nothing",
    async () => {
      const account = await FuzzAccount.create();
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(listingBody, fc.boolean(), async (body, withKey) => {
          const headers: Record<string, string> = withKey ? { "idempotency-key": `fuzz-${++idempotencyKeys}` } : {};
          const validated = await validate(account, body);
          expectSound(validated, `validate ${describeBody(body)}`);
          const before = await account.writes();
          const created = await create(account, body, headers);
          expectSound(created, `create ${describeBody(body)}`);
          seen.set(created.status, (seen.get(created.status) ?? 0) + 1);
          const after = await account.writes();
          if (created.status === 201) {
            expect(after).toMatchObject({ listings: before.listings + 1, idempotency: before.idempotency + (withKey ? 1 : 0) });
            expect(validated.status).toBe(200);
            return;
          }
          expect(after, `create ${created.status} wrote something: ${describeBody(body)}`).toEqual(before);
          // The one disagreement validate cannot see: an external_ref that another listing of the account holds.
          const ref = (body as { external_ref?: unknown } | null)?.external_ref;
          const takenRef =
            validated.status === 200 &&
            errorKeys(created).join() === "body /external_ref invalid_value" &&
            typeof ref === "string" &&
            (await account.hasRef(ref.trim()));
          if (!takenRef) expectAgreement(validated, created, body);
        }),
        fuzzParameters(RUNS),
      );
      // The generator is worth something only if it reaches both sides of the agreement.
      expect([...seen.keys()], JSON.stringify([...seen])).toEqual(expect.arrayContaining([201, 422]));
    },
    fuzzTimeout(RUNS, 150),
  );

  it(
    "with Idempotency-Keys reused across bodies: a refusal keeps no record, a replay writes nothing",
    async () => {
      const account = await FuzzAccount.create();
      await fc.assert(
        fc.asyncProperty(listingBody, fc.constantFrom("k-a", "k-b", "k-c", "k-d"), async (body, idempotencyKey) => {
          const before = await account.writes();
          const created = await create(account, body, { "idempotency-key": idempotencyKey });
          expectSound(created, `create ${describeBody(body)}`);
          const after = await account.writes();
          const fresh = created.status === 201 && !created.headers.has("idempotent-replayed");
          expect(after, `create ${created.status}: ${describeBody(body)}`).toEqual(
            fresh ? { ...before, listings: before.listings + 1, idempotency: before.idempotency + 1, events: after.events } : before,
          );
          if (created.headers.has("idempotent-replayed")) expect(created.status).toBe(201);
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 100),
  );
});

describe("fuzz: PATCH /listings/{code} (merge patch with If-Match)", () => {
  it(
    "never answers 5xx, and a refused patch leaves the listing and its events as they were",
    async () => {
      const account = await FuzzAccount.create();
      const first = await create(account, validApartment());
      expect(first.status).toBe(201);
      const code = first.json!.data.code as string;
      let etag = first.json!.data.etag as string;
      const ifMatch = fc.constantFrom<(current: string) => string | undefined>(
        (current) => current,
        (current) => current.replace(/"/g, ""),
        () => "*",
        () => undefined,
        () => '"stale"',
        (current) => `W/${current}`,
      );
      await fc.assert(
        fc.asyncProperty(mergePatch, ifMatch, fc.boolean(), async (patch, chooseTag, mergeType) => {
          const tag = chooseTag(etag);
          const headers: Record<string, string> = { "content-type": mergeType ? "application/merge-patch+json" : "application/json" };
          if (tag !== undefined) headers["if-match"] = tag;
          const before = await account.writes();
          const res = await call(PATCH, {
            path: `/listings/${code}`,
            method: "PATCH",
            key: await account.key(),
            body: patch,
            params: { code },
            headers,
          });
          expectSound(res, `PATCH ${describeBody(patch)} If-Match ${tag}`);
          if (res.status >= 400) {
            expect(await account.writes(), `PATCH ${res.status} wrote something: ${describeBody(patch)}`).toEqual(before);
            const read = await call(PATCH, {
              path: `/listings/${code}`,
              method: "PATCH",
              key: await account.key(),
              body: {},
              params: { code },
            });
            expect(read.json?.data?.etag, `PATCH ${res.status} changed the listing: ${describeBody(patch)}`).toBe(etag);
            return;
          }
          expect([200, 202]).toContain(res.status);
          etag = res.json!.data.etag;
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 150),
  );
});

describe("fuzz: PUT /listings/ref/{ref}", () => {
  it(
    "never answers 5xx; a refusal writes nothing, a creation writes one listing",
    async () => {
      const account = await FuzzAccount.create();
      const ref = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom("crm-1", "crm-2", "A.b:c/d_e-9") },
        { weight: 1, arbitrary: hostileString },
      );
      const body = fc.oneof(
        { weight: 2, arbitrary: listingBody },
        {
          weight: 1,
          arbitrary: listingBody.map((b) => (b && typeof b === "object" && !Array.isArray(b) ? { ...b, external_ref: undefined } : b)),
        },
      );
      await fc.assert(
        fc.asyncProperty(ref, body, async (refValue, sent) => {
          const before = await account.writes();
          const res = await call(putByRef, {
            path: `/listings/ref/${encodeURIComponent(refValue.toWellFormed())}`,
            method: "PUT",
            key: await account.key(),
            body: sent,
            params: { ref: refValue },
          });
          expectSound(res, `PUT ref ${JSON.stringify(refValue)} ${describeBody(sent)}`);
          const after = await account.writes();
          if (res.status >= 400) expect(after, `PUT ${res.status} wrote something: ${describeBody(sent)}`).toEqual(before);
          else if (res.status === 201) expect(after.listings).toBe(before.listings + 1);
          else expect(after.listings).toBe(before.listings);
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, 100),
  );
});
