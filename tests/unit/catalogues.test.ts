import { describe, expect, it } from "vitest";
import { AppError, ValidationError, errorStatus, type ErrorCode, type FieldError } from "@/lib/base/errors";
import { renderProblem } from "@/lib/base/problem";
import { readFileSync } from "node:fs";
import { locales, messages, quantity, type Locale } from "@/lib/base/i18n";
import {
  mailTexts,
  problemDetails,
  problemReasons,
  units,
  validationDetails,
  validationReasons,
  type ValidationCode,
  type ValidationReason,
} from "@/lib/base/i18n/keys";
import { argumentsOf } from "@/lib/base/i18n/arguments";
import { placeholdersFile, renderedPlaceholders } from "@/scripts/i18n-placeholders";

/**
 * The registry (lib/base/i18n/placeholders.ts, generated from the English catalogue) lists every key
 * the code can use, with the names of its arguments; error constructors are typed by it. Each
 * catalogue must hold exactly those keys (a key in one language only is missing in the other; a key
 * outside the registry is unused) with exactly those arguments, and every entry must render in both
 * languages with nothing left unfilled.
 */

const placeholders = (text: string) => argumentsOf(text).sort();
const sorted = (names: readonly string[]) => [...names].sort();
const keysOf = (value: object | undefined) => Object.keys(value ?? {}).sort();
const unfilled = /\{\w+\}/;

/** A value for each parameter: numbers where a count or bound is expected, a unit where `unit` is. */
function sample(names: readonly string[]): Record<string, string | number> {
  return Object.fromEntries(names.map((name) => [name, name === "unit" ? "characters" : name === "reason" ? "invalid" : 20]));
}

describe.each(locales)("catalogue %s", (locale: Locale) => {
  const catalogue = messages(locale);

  it("has a title and detail for exactly the registry's problem codes, which are the error codes", () => {
    expect(keysOf(problemDetails)).toEqual(keysOf(errorStatus));
    expect(keysOf(catalogue.problems)).toEqual(keysOf(problemDetails));
    for (const [code, params] of Object.entries(problemDetails)) {
      const text = catalogue.problems[code as ErrorCode];
      expect(text.title, code).not.toBe("");
      expect(placeholders(text.detail), code).toEqual(sorted(params));
    }
  });

  it("has the text of exactly the registry's problem reasons, with their placeholders", () => {
    for (const code of Object.keys(problemDetails) as ErrorCode[]) {
      const registered: Record<string, readonly string[]> =
        (problemReasons as Partial<Record<ErrorCode, Record<string, readonly string[]>>>)[code] ?? {};
      const texts: Record<string, string> = catalogue.problems[code].reasons ?? {};
      expect(keysOf(texts), code).toEqual(keysOf(registered));
      for (const [reason, params] of Object.entries(registered))
        expect(placeholders(texts[reason]), `${code} ${reason}`).toEqual(sorted(params));
    }
  });

  it("has the detail of exactly the registry's validation codes and reasons, with their placeholders", () => {
    expect(keysOf(catalogue.validation)).toEqual(keysOf(validationDetails));
    for (const [code, params] of Object.entries(validationDetails)) {
      // `unit` is no placeholder: it turns the bound beside it into a quantity.
      const expected = sorted(params.filter((name: string) => name !== "unit"));
      expect(placeholders(catalogue.validation[code as ValidationCode]), code).toEqual(expected);
    }
    expect(keysOf(catalogue.validation_reasons)).toEqual(keysOf(validationReasons));
    for (const [reason, params] of Object.entries(validationReasons)) {
      expect(placeholders(catalogue.validation_reasons[reason as ValidationReason]), reason).toEqual(sorted(params));
    }
  });

  it("has every unit as a message of `n`, a plural with a form for each category of the language or one form for all", () => {
    expect(keysOf(catalogue.units)).toEqual(sorted(units));
    const categories = sorted(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
    for (const unit of units) {
      const text = catalogue.units[unit];
      expect(placeholders(text), unit).toEqual(["n"]);
      const plural = /^\{n, plural, (.*)\}$/.exec(text);
      if (plural) expect(sorted([...plural[1].matchAll(/(\w+) \{/g)].map((match) => match[1])), unit).toEqual(categories);
    }
  });

  it("renders every problem and every reason of it with all placeholders filled", () => {
    for (const [code, params] of Object.entries(problemDetails)) {
      const problem = renderProblem(new AppError(code as ErrorCode, sample(params) as never), locale, "req_1");
      expect(problem.detail, code).not.toMatch(unfilled);
      expect(problem.title, code).not.toMatch(unfilled);
      expect(problem).not.toHaveProperty("reason");
      const reasons: Record<string, readonly string[]> =
        (problemReasons as Partial<Record<ErrorCode, Record<string, readonly string[]>>>)[code as ErrorCode] ?? {};
      for (const [reason, reasonParams] of Object.entries(reasons)) {
        const refused = renderProblem(new AppError(code as ErrorCode, { ...sample(reasonParams), reason } as never), locale, "req_1");
        expect(refused.detail, `${code} ${reason}`).not.toMatch(unfilled);
        expect(refused.detail, `${code} ${reason}`).not.toBe(problem.detail);
        expect(refused.reason).toBe(reason);
      }
    }
  });

  it("renders every validation code and reason with all placeholders filled", () => {
    const errors = [
      ...Object.entries(validationDetails).map(([code, params]) => ({ pointer: "/title", code, params: sample(params) })),
      ...Object.entries(validationReasons).map(([reason, params]) => ({
        pointer: "/title",
        code: "invalid",
        params: { ...sample(params), reason },
      })),
    ] as FieldError[];
    const problem = renderProblem(new ValidationError(errors), locale, "req_1");
    problem.errors!.forEach((error, index) => {
      expect(error.detail, `${error.code} ${JSON.stringify(errors[index].params)}`).not.toMatch(unfilled);
      expect(error.detail).not.toBe("");
    });
  });

  it("has the subject and text of exactly the registry's mails, the text with all their placeholders, the subject with some", () => {
    expect(keysOf(catalogue.mail)).toEqual(keysOf(mailTexts));
    for (const [key, params] of Object.entries(mailTexts)) {
      const texts = catalogue.mail[key as keyof typeof mailTexts];
      expect(texts.subject, key).not.toBe("");
      expect(placeholders(texts.text), key).toEqual(sorted(params));
      for (const name of placeholders(texts.subject)) expect(params, `${key} subject`).toContain(name);
    }
  });

  it("renders every unit in every plural category, the number as the language writes it (a year as it is)", () => {
    const written = new Intl.NumberFormat(locale);
    for (const unit of units) {
      for (const n of [0, 1, 2, 19, 20, 101, 1.5, 500_000]) {
        const text = quantity(locale, unit, n);
        expect(text, `${unit} ${n}`).toContain(unit === "year" ? String(n) : written.format(n));
        expect(text, `${unit} ${n}`).not.toMatch(unfilled);
      }
    }
  });
});

describe("the generated registry", () => {
  it("is what `npm run i18n:placeholders` makes of the English catalogue today", async () => {
    expect(readFileSync(placeholdersFile, "utf8")).toBe(await renderedPlaceholders());
  });
});

describe("plural forms and units in validation details", () => {
  const detail = (locale: Locale, error: FieldError) => renderProblem(new ValidationError([error]), locale, "req_1").errors![0].detail;

  it("says what a bound counts or measures", () => {
    expect(detail("en", { pointer: "/title", code: "min", params: { min: 10, unit: "characters" } })).toBe(
      "Below the minimum of 10 characters.",
    );
    expect(detail("en", { pointer: "/photos", code: "max", params: { max: 1, unit: "items" } })).toBe("Above the maximum of 1 item.");
    expect(detail("en", { pointer: "/rooms", code: "between", params: { min: 1, max: 40, unit: "number" } })).toBe(
      "Must be between 1 and 40.",
    );
    expect(detail("en", { pointer: "/title", code: "between", params: { min: 10, max: 90, unit: "characters" } })).toBe(
      "Must be between 10 and 90 characters.",
    );
    expect(detail("en", { pointer: "/usable_area_sqm", code: "below_type_minimum", params: { min: 12, unit: "sqm" } })).toBe(
      "Below the minimum of 12 m² for this property type.",
    );
  });

  it("uses the Romanian plural forms, with „de” from 20 on", () => {
    expect(detail("ro", { pointer: "/title", code: "min", params: { min: 10, unit: "characters" } })).toBe("Sub minimul de 10 caractere.");
    expect(detail("ro", { pointer: "/title", code: "between", params: { min: 10, max: 90, unit: "characters" } })).toBe(
      "Trebuie să fie între 10 și 90 de caractere.",
    );
    expect(detail("ro", { pointer: "/x", code: "max", params: { max: 1, unit: "night" } })).toBe("Peste maximul de 1 noapte.");
  });

  it("writes a bound as the language writes numbers", () => {
    expect(detail("en", { pointer: "/description", code: "max", params: { max: 10000, unit: "characters" } })).toBe(
      "Above the maximum of 10,000 characters.",
    );
    expect(detail("ro", { pointer: "/description", code: "max", params: { max: 10000, unit: "characters" } })).toBe(
      "Peste maximul de 10.000 de caractere.",
    );
    expect(detail("ro", { pointer: "/usable_area_sqm", code: "min", params: { min: 12.5, unit: "sqm" } })).toBe("Sub minimul de 12,5 m².");
  });
});

describe("the types follow the registry", () => {
  it("refuses a missing, extra or unknown parameter at compile time", () => {
    // Never run: the `@ts-expect-error` lines fail `tsc --noEmit` if the mistake they hold compiles.
    const compileOnly = () => [
      new AppError("missing_ability", { permission: "listings:write" }),
      new AppError("listing_action_refused", { reason: "not_editable", status: "sold" }),
      new AppError("not_found"),
      // @ts-expect-error: the detail needs `permission`
      new AppError("missing_ability"),
      // @ts-expect-error: `status` is a parameter of not_editable, not of open_reports
      new AppError("listing_action_refused", { reason: "open_reports", status: "sold" }),
      // @ts-expect-error: not_editable needs `status`
      new AppError("listing_action_refused", { reason: "not_editable" }),
      // @ts-expect-error: a sentence is no reason key
      new AppError("listing_action_refused", { reason: "The listing cannot be edited." }),
      // @ts-expect-error: not_found has no reason of that name
      new AppError("not_found", { reason: "open_reports" }),
    ];
    const fieldErrors: FieldError[] = [
      { pointer: "/title", code: "min", params: { min: 10, unit: "characters" } },
      { pointer: "/status", code: "invalid", params: { reason: "read_only" } },
      // @ts-expect-error: a bound says what it counts
      { pointer: "/title", code: "min", params: { min: 10 } },
      // @ts-expect-error: immutable needs `field`
      { pointer: "/type", code: "invalid_value", params: { reason: "immutable" } },
      // @ts-expect-error: a sentence is no reason key
      { pointer: "/x", code: "invalid", params: { reason: "Already used." } },
    ];
    expect(compileOnly).toBeTypeOf("function");
    expect(fieldErrors).toHaveLength(5);
  });
});
