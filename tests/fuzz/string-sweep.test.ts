import { beforeAll, describe, expect, it } from "vitest";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { PUT as putByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { POST as validateRoute } from "@/app/api/v1/listings/validate/route";
import { writeFieldNames, writeFields } from "@/lib/domain/vocabulary";
import { call } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { valid } from "../validation/fixtures";
import { describeBody, errorKeys, expectSound, FuzzAccount, type Answer } from "./support";

// Issue 6: every string a listing accepts, at every endpoint that writes one, with U+0000, lone
// surrogates, another control character, bidi controls and a 1 MB string. Not random: the whole
// sweep runs every time.

type Place = { pointer: string; base: () => Record<string, unknown>; put: (body: Record<string, unknown>, text: string) => void };

const places: Place[] = [
  ...writeFieldNames
    .filter((name) => writeFields[name].kind === "text")
    .map((name): Place => ({ pointer: `/${name}`, base: () => validApartment(), put: (body, text) => void (body[name] = text) })),
  ...writeFieldNames
    .filter((name) => writeFields[name].kind === "list")
    .map((name): Place => ({ pointer: `/${name}/1`, base: () => validApartment(), put: (body, text) => void (body[name] = ["x", text]) })),
  ...(["label", "floors/from"] as const).map((member): Place => ({
    pointer: `/unit_types/1/${member}`,
    base: () => structuredClone(valid.development),
    put: (body, text) => {
      const rows = body.unit_types as Record<string, unknown>[];
      rows[1] = member === "label" ? { ...rows[1], label: text } : { ...rows[1], floors: { from: text, to: "8" } };
    },
  })),
];

/** Texts that can never be stored: the answer is 422 `invalid` at their pointer, wherever they are. */
const unstorable = ["Strada Mare\u0000 12", "\ud800", "Strada \udc00Mare"];
/** Texts that may be stored or refused by the field's own rules, never a 5xx. */
const awkward = ["\u202eStrada Mare 12\u202c \u2067x\u2069\u200f\ufeff", "a".repeat(1_000_000)];
/** Sent to PATCH and PUT by ref too; the others to validate and create only, to keep the sweep quick. */
const everywhere = new Set(unstorable.slice(0, 2));

const describeText = (text: string) => (text.length > 40 ? `${text.length} characters ${JSON.stringify(text[0])}` : JSON.stringify(text));

let account: FuzzAccount;
let code: string;
let etag: string;
let refs = 0;

beforeAll(async () => {
  account = await FuzzAccount.create();
  const created = await call(createRoute, { path: "/listings", method: "POST", key: await account.key(), body: validApartment() });
  expect(created.status).toBe(201);
  code = created.json!.data.code;
  etag = created.json!.data.etag;
});

/** One request: sound, and a refusal wrote nothing. */
async function send(what: string, request: () => Promise<Answer>): Promise<Answer> {
  const before = await account.writes();
  const res = await request();
  expectSound(res, what);
  if (res.status >= 400) expect(await account.writes(), `${what} → ${res.status} wrote something`).toEqual(before);
  return res;
}

describe.each(places)("string sweep at $pointer", ({ pointer, base, put }) => {
  it.each([...unstorable, ...awkward].map((text) => [describeText(text), text]))(
    "%s: validate and create agree; U+0000 and a lone surrogate are refused by PATCH and PUT by ref too",
    async (_, text) => {
      const body = base();
      put(body, text);
      const what = `${pointer} = ${describeText(text)}`;
      const validated = await send(`validate ${what}`, async () =>
        call(validateRoute, { path: "/listings/validate", method: "POST", key: await account.key(), body }),
      );
      const created = await send(`create ${what}`, async () =>
        call(createRoute, { path: "/listings", method: "POST", key: await account.key(), body }),
      );
      expect(
        validated.status === 200,
        `${what}: validate ${validated.status}, create ${created.status} ${describeBody(created.json)}`,
      ).toBe(created.status === 201);
      if (created.status !== 201) expect(errorKeys(created)).toEqual(errorKeys(validated));
      if (unstorable.includes(text)) expect(errorKeys(created)).toContain(`body ${pointer} invalid`);

      if (!everywhere.has(text)) return;

      const patchBody: Record<string, unknown> = pointer.startsWith("/unit_types") ? { unit_types: body.unit_types } : {};
      if (!pointer.startsWith("/unit_types")) put(patchBody, text);
      const patched = await send(`PATCH ${what}`, async () =>
        call(PATCH, {
          path: `/listings/${code}`,
          method: "PATCH",
          key: await account.key(),
          body: patchBody,
          params: { code },
          headers: { "if-match": etag, "content-type": "application/merge-patch+json" },
        }),
      );
      expect(patched.status).toBe(422);

      const ref = `sweep-${++refs}`;
      const withoutRef = { ...body, external_ref: undefined };
      const upserted = await send(`PUT ref ${what}`, async () =>
        call(putByRef, {
          path: `/listings/ref/${ref}`,
          method: "PUT",
          key: await account.key(),
          body: pointer === "/external_ref" ? withoutRef : body,
          params: { ref },
        }),
      );

      const refused = {
        pointer,
        code: "invalid",
        reason: expect.stringMatching(/^(control_character|lone_surrogate)$/),
        detail: expect.stringMatching(/control character|lone UTF-16 surrogate/),
      };
      for (const [name, res] of Object.entries({ validated, created, patched, ...(pointer === "/external_ref" ? {} : { upserted }) })) {
        expect(res.status, `${name} ${what}: ${res.text.slice(0, 300)}`).toBe(422);
        expect(res.json!.errors, `${name} ${what}`).toContainEqual(refused);
      }
    },
  );
});
