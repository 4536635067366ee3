import type { ErrorCode } from "@/lib/base/errors";
import { mailTexts, problemDetails, problemReasons, units, validationDetails, validationReasons } from "./placeholders";

/**
 * The types of the API's messages (the `api` part of messages/<locale>.json): the keys and the
 * arguments of each, generated from the English catalogue into placeholders.ts. Errors take their
 * keys and the types of their parameters from here, so a missing or extra parameter does not compile;
 * tests/unit/catalogues.test.ts renders every message of both languages.
 */
export { mailTexts, problemDetails, problemReasons, units, validationDetails, validationReasons };

/** The bound rendered as a quantity of `unit`; in `between` the lower bound stays a bare number ("between 10 and 90 characters"). */
export const quantityParam = {
  min: "min",
  max: "max",
  between: "max",
  below_type_minimum: "min",
  above_type_maximum: "max",
} as const satisfies Partial<Record<keyof typeof validationDetails, string>>;

export type MailKey = keyof typeof mailTexts;
export type Unit = (typeof units)[number];
export type ValidationCode = keyof typeof validationDetails;
export type ValidationReason = keyof typeof validationReasons;
type ProblemReasonCode = keyof typeof problemReasons;

type Value = string | number;
/** What a message without parameters takes: parameters are optional where this is assignable to them. */
export type NoParams = Record<never, never>;
type ParamsOf<Names extends readonly string[]> = { [Name in Names[number]]: Value };
/** Parameters given by the renderer, never by whoever throws. */
type RendererParams = "request_id";

/** The parameters of a problem: those of its detail, or a `reason` with the parameters of that reason's text. */
export type ProblemParams<C extends ErrorCode> =
  | (Omit<ParamsOf<(typeof problemDetails)[C]>, RendererParams> & { reason?: undefined })
  | (C extends ProblemReasonCode
      ? {
          [R in keyof (typeof problemReasons)[C]]: { reason: R } & ParamsOf<Extract<(typeof problemReasons)[C][R], readonly string[]>>;
        }[keyof (typeof problemReasons)[C]]
      : never);

type ReasonParams = { [R in ValidationReason]: { reason: R } & ParamsOf<(typeof validationReasons)[R]> }[ValidationReason];

/** The parameters of a mail's subject and text. */
export type MailParams<K extends MailKey> = ParamsOf<(typeof mailTexts)[K]>;

/**
 * The parameters of a validation code's detail; `invalid` and `invalid_value` take a reason and its
 * parameters; a bound of `quantityParam` says in `unit` what it counts ("10 characters", "3 items").
 */
export type FieldParams<C extends ValidationCode> = C extends "invalid" | "invalid_value"
  ? ReasonParams
  : ParamsOf<(typeof validationDetails)[C]> & (C extends keyof typeof quantityParam ? { unit: Unit } : NoParams);

/** The shape both catalogues' `api` part has: exactly the keys above, every one with a text. */
export interface Messages {
  readonly problems: {
    readonly [C in ErrorCode]: { readonly title: string; readonly detail: string } & (C extends ProblemReasonCode
      ? { readonly reasons: { readonly [R in keyof (typeof problemReasons)[C]]: string } }
      : { readonly reasons?: never });
  };
  readonly validation: { readonly [C in ValidationCode]: string };
  readonly validation_reasons: { readonly [R in ValidationReason]: string };
  /** A message of `n` per unit, in ICU plural form where the language has several ("19 caractere", "20 de caractere"). */
  readonly units: { readonly [U in Unit]: string };
  readonly mail: { readonly [K in MailKey]: { readonly subject: string; readonly text: string } };
}
