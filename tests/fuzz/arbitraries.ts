import fc from "fast-check";
import { refusedMembers, unitTypeFields, writeFieldNames, writeFields } from "@/lib/domain/vocabulary";
import { valid } from "../validation/fixtures";

/** Text that has hurt APIs: U+0000, lone surrogates, controls, bidi and zero-width marks, BOM, emoji. */
export const hostileTexts = [
  "\u0000",
  "abc\u0000def",
  "\ud800",
  "\udc00",
  "x\udbff",
  "\udfff\ud800",
  "\u0001",
  "\u001b[31m",
  "\u007f",
  "\u0085",
  "\u202e",
  "\u2066abc\u2069",
  "\u200b",
  "\u200f",
  "\ufeff",
  "\ufffe",
  "\uffff",
  "😀",
  "\r\n\t",
  "%00",
  "\\u0000",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  " ",
  "",
];

/** Any UTF-16 code unit, lone surrogates included (JSON allows them in strings). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileTexts) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 130 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...hostileTexts), fc.integer({ min: 1, max: 3000 })).map(([text, times]) => text.repeat(times)),
  },
);

const edgeNumber = fc.constantFrom(0, -0, -1, 0.5, 1e-7, 1.005, 2 ** 31, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1.7976931348623157e308, -1e308);

/** Any JSON value, with hostile strings and edge numbers mixed in. */
export const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    edgeNumber,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...writeFieldNames)), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const fixtures = Object.values(valid) as Record<string, unknown>[];
const fieldNames = [...writeFieldNames, ...Object.keys(refusedMembers)];

/** A value another valid listing uses for that field: right type, maybe wrong for this listing. */
const borrowedValue = (field: string) => fc.constantFrom(...fixtures).map((fixture) => fixture[field]);

type Mutation = (body: Record<string, unknown>) => void;

const unitTypeMember = fc.constantFrom(...Object.keys(unitTypeFields));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...fieldNames), jsonish).map(
    ([field, value]): Mutation =>
      (body) =>
        void (body[field] = value),
  ),
  fc.tuple(fc.constantFrom(...fieldNames), hostileString).map(
    ([field, value]): Mutation =>
      (body) =>
        void (body[field] = value),
  ),
  fc.constantFrom(...writeFieldNames).chain((field) =>
    borrowedValue(field).map(
      (value): Mutation =>
        (body) =>
          void (body[field] = value),
    ),
  ),
  fc.constantFrom(...fieldNames).map(
    (field): Mutation =>
      (body) =>
        void delete body[field],
  ),
  fc.constantFrom(...writeFieldNames).map(
    (field): Mutation =>
      (body) =>
        void (body[field] = null),
  ),
  fc.tuple(hostileString, jsonish).map(
    ([name, value]): Mutation =>
      (body) =>
        void (body[name] = value),
  ),
  // Inside lists and unit types: one item or member made hostile.
  fc.tuple(fc.constantFrom(...writeFieldNames.filter((name) => writeFields[name].kind === "list")), hostileString).map(
    ([field, text]): Mutation =>
      (body) =>
        void (body[field] = [...(Array.isArray(body[field]) ? body[field] : []), text]),
  ),
  fc.tuple(unitTypeMember, jsonish).map(([member, value]): Mutation => (body) => {
    const rows = Array.isArray(body.unit_types) ? [...body.unit_types] : [{ label: "2 camere" }];
    rows[0] = { ...(typeof rows[0] === "object" && rows[0] ? rows[0] : {}), [member]: value };
    body.unit_types = rows;
  }),
);

/** Free text: what a listing stores as sent, so what reached the database unchecked. */
export const freeTextFields = writeFieldNames.filter((name) => {
  const spec = writeFields[name];
  return spec.kind === "text" && !spec.format && !spec.enumeration;
});

/** One free text of an otherwise valid listing made hostile, its length kept within bounds. */
const hostileFreeText: fc.Arbitrary<Mutation> = fc
  .tuple(fc.constantFrom(...freeTextFields), fc.constantFrom(...hostileTexts), fc.nat(8))
  .map(([field, text, at]): Mutation => (body) => {
    const current = typeof body[field] === "string" ? (body[field] as string) : "Strada Lungă numărul 12";
    const cut = Math.min(at, current.length);
    body[field] = `${current.slice(0, cut)}${text}${current.slice(cut)}`;
  });

/** A valid listing of some type with a few random changes, most often one. */
export const mutatedListing = fc
  .tuple(
    fc.constantFrom(...fixtures),
    fc.oneof(
      { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }) },
      { weight: 2, arbitrary: fc.array(hostileFreeText, { minLength: 1, maxLength: 1 }) },
      { weight: 2, arbitrary: fc.array(fc.oneof(mutation, hostileFreeText), { minLength: 0, maxLength: 4 }) },
    ),
  )
  .map(([fixture, mutations]) => {
    const body = structuredClone(fixture);
    for (const mutate of mutations) mutate(body);
    return body;
  });

/** What a client may send as a listing: mostly near-valid listings, sometimes anything at all. */
export const listingBody: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: mutatedListing },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), hostileString), jsonish, { maxKeys: 8 }) },
  { weight: 1, arbitrary: jsonish },
);

/** A merge patch: a few members set, nulled or made hostile. */
export const mergePatch: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.oneof(mutation, hostileFreeText), { maxLength: 4 }).map((mutations) => {
      const patch: Record<string, unknown> = {};
      for (const mutate of mutations) mutate(patch);
      return patch;
    }),
  },
  { weight: 1, arbitrary: jsonish },
);
