import type { ErrorCode } from "@/lib/base/errors";

/**
 * Every message the code can ask the catalogues for, with the names of its `{placeholders}`: the
 * contract between the code and the catalogues. Errors take their keys and the types of their
 * parameters from here, so a missing or extra parameter does not compile; `en.ts` and `ro.ts` hold
 * exactly these keys with exactly these placeholders (tests/unit/catalogues.test.ts renders them all).
 */

/** Parameters of each problem's `detail`. `request_id` is filled by the renderer, not by the thrower. */
export const problemDetails = {
  bad_request: [],
  malformed_json: [],
  invalid_encoding: [],
  nesting_too_deep: ["limit"],
  malformed_path: [],
  unauthenticated: [],
  missing_ability: ["permission"],
  forbidden: [],
  not_found: [],
  method_not_allowed: ["method", "allow"],
  not_acceptable: [],
  listing_busy: [],
  listing_action_refused: [],
  idempotency_key_in_use: [],
  limit_reached: [],
  listing_changed_meanwhile: [],
  payload_too_large: ["limit"],
  unsupported_media_type: ["expected"],
  validation_failed: [],
  idempotency_key_reused: [],
  too_many_requests: ["limit", "retry_after"],
  internal_error: ["request_id"],
  service_unavailable: ["retry_after"],
  invalid_request: [],
  invalid_client: [],
  invalid_grant: [],
  unsupported_grant_type: [],
  invalid_scope: [],
  unsupported_response_type: [],
  access_denied: [],
  upload_signature_invalid: [],
  upload_expired: [],
  upload_length_mismatch: ["expected"],
  upload_incomplete: ["expected"],
  upload_already_used: [],
} as const satisfies Record<ErrorCode, readonly string[]>;

/**
 * Problems that say more precisely why: the `reason` member of the problem body (stable, never
 * translated) and the detail of that reason instead of the code's general one.
 */
export const problemReasons = {
  unauthenticated: {
    /** No Bearer credential in `Authorization`. */
    missing_key: [],
    /** A credential that is not shaped like a key of ours (told by its form alone). */
    malformed_key: [],
    /** A `svc_live_` key sent to the sandbox (told by its prefix alone). */
    production_key: [],
    /** A `svc_test_` key sent to production. */
    sandbox_key: [],
  },
  not_found: {
    /** `resume` of a listing the caller can see that is not paused (still a 404: README, API decisions). */
    not_paused: ["status"],
  },
  listing_action_refused: {
    open_reports: [],
    not_editable: ["status"],
    cannot_pause: ["status"],
    cannot_mark_sold: ["status"],
    /** "Still available" of a listing that is neither unconfirmed nor active. */
    cannot_confirm: ["status"],
    nothing_to_approve: ["status"],
    /** A moderator's decision on a listing of their own or of their agency (someone else must judge it). */
    own_listing: [],
  },
  limit_reached: {
    too_many_keys: ["limit"],
    too_many_webhooks: ["limit"],
  },
  too_many_requests: {
    /** Password guesses for one account (sign-in and the password change count together), in a 15-minute window. */
    password_attempts: ["retry_after"],
  },
  invalid_request: {
    /** The token and revocation endpoints take `application/x-www-form-urlencoded` only. */
    form_content_type: [],
    /** A form body that is not UTF-8 or exceeds the size limit. */
    malformed_form: ["limit"],
    duplicate_parameter: ["parameter"],
    missing_parameter: ["parameter"],
    /** HTTP Basic and `client_secret` in the body together (RFC 6749 §2.3: one method per request). */
    two_client_authentications: [],
    /** `client_id` in the body differs from the one in HTTP Basic. */
    client_id_mismatch: [],
    code_verifier_format: [],
    missing_state: [],
    code_challenge_missing: [],
    /** Missing `code_challenge_method` means `plain` (RFC 7636 §4.3), refused like an explicit `plain`. */
    code_challenge_method: [],
    code_challenge_format: [],
  },
  invalid_client: {
    no_client_authentication: [],
    malformed_basic: [],
  },
  invalid_grant: {
    code_unknown: [],
    code_expired: [],
    code_used: [],
    redirect_uri_mismatch: [],
    code_verifier_mismatch: [],
    key_limit: ["limit"],
    account_unavailable: [],
  },
  invalid_scope: {
    scope_missing: [],
    unknown_scope: ["scope"],
  },
} as const satisfies Partial<Record<ErrorCode, Record<string, readonly string[]>>>;

/**
 * Parameters of each validation code's detail (`errors[].detail`). `unit` names an entry of
 * `units`: the bound beside it is rendered as a quantity of that unit ("10 characters", "3 items").
 */
export const validationDetails = {
  required: [],
  required_if: [],
  required_unless: [],
  required_with: ["other"],
  required_without: ["other"],
  present: [],
  string: [],
  integer: [],
  numeric: [],
  boolean: [],
  array: [],
  object: [],
  decimal: ["places"],
  min: ["min", "unit"],
  max: ["max", "unit"],
  between: ["min", "max", "unit"],
  gt: ["other"],
  gte: ["other"],
  size: ["size"],
  enum: [],
  in: ["values"],
  distinct: [],
  regex: [],
  date_format: ["format"],
  url: ["scheme"],
  email: [],
  prohibits: ["other"],
  iso_country: [],
  meaningful_text: [],
  phone_number_valid: [],
  valid_parcel_ring: [],
  invalid_value: ["reason"],
  invalid: ["reason"],
  unknown_parameter: [],
  transaction_invalid_for_type: ["transaction", "type"],
  floor_above_total: ["total_floors"],
  upfront_above_price: [],
  below_type_minimum: ["min", "unit"],
  above_type_maximum: ["max", "unit"],
  bedrooms_above_rooms: ["rooms"],
  built_above_land: ["max"],
  unfurnished_with_appliances: ["appliances"],
  heating_none_exclusive: [],
  delivery_in_past: ["quarter"],
  complex_needs_complete_type: [],
  area_to_below_from: ["from"],
  floor_range_invalid: [],
  price_currency_not_offered: ["currency", "currencies"],
  price_currency_unavailable: ["currency"],
  price_above_cap: ["cap"],
} as const;

/** The bound rendered as a quantity of `unit`; in `between` the lower bound stays a bare number ("between 10 and 90 characters"). */
export const quantityParam = {
  min: "min",
  max: "max",
  between: "max",
  below_type_minimum: "min",
  above_type_maximum: "max",
} as const satisfies Partial<Record<keyof typeof validationDetails, string>>;

/** Why an `invalid` or `invalid_value` field error was given: its `reason`, with the parameters of its text. */
export const validationReasons = {
  read_only: [],
  photos_endpoint: [],
  immutable: ["field"],
  parcel_far_from_location: ["km"],
  unknown_level: [],
  control_character: [],
  lone_surrogate: [],
  external_ref_taken: [],
  external_ref_mismatch: [],
  unknown_cursor: [],
  email_taken: [],
  unknown_account_email: [],
  flag_needs_value: ["flag"],
  unexpected_argument: ["word"],
  link_unknown: [],
  link_expired: [],
  link_used: [],
  wrong_password: [],
  redirect_uri_scheme: [],
  redirect_uri_fragment: [],
  unknown_client: [],
  redirect_uri_not_registered: [],
  /** A webhook address with a user name or password in it. */
  url_credentials: [],
  /** A webhook address on (or resolving to) a loopback, private, link-local, reserved or other non-public address. */
  url_not_public: [],
  /** A webhook address whose host name does not resolve. */
  url_unresolvable: [],
  /** A photo's upload key that does not exist (or expired unused) or belongs to another account: one answer. */
  unknown_upload: [],
  /** A photo's upload key whose file was not (completely) uploaded. */
  upload_not_stored: [],
  invalid: [],
} as const;

/**
 * Mails the product sends, with the names of the placeholders of their text (the subject may use
 * some of them): sent in the account's language.
 */
export const mailTexts = {
  /** After sign-up: the confirmation link. */
  confirm_email: ["name", "link", "hours"],
  /** A sign-up with an address that has an account goes to that address instead (nothing is created). */
  sign_up_attempt: ["name", "sign_in_link", "reset_link"],
  /** The password reset link. */
  reset_password: ["name", "link", "minutes"],
  /** After a password change or reset, so an account holder learns of one they did not make. */
  password_changed: ["name", "reset_link"],
  /** A webhook stopped because every attempt failed for `days` days. */
  webhook_stopped_failing: ["name", "url", "days", "link"],
  /** A webhook stopped because its receiver answered 410 Gone. */
  webhook_stopped_gone: ["name", "url", "link"],
  /** Active listings (one per line in `listings`) that become unconfirmed at `date` unless confirmed. */
  confirmation_reminder: ["name", "date", "listings", "link"],
} as const;

export type MailKey = keyof typeof mailTexts;

/**
 * What a bound counts or measures. The catalogue text of each has `{n}` and a form per plural
 * category of the language (`Intl.PluralRules`): Romanian says "19 caractere" but "20 de caractere".
 */
export const units = [
  "number",
  "characters",
  "items",
  "points",
  "sqm",
  "m",
  "degree",
  "percent",
  "kw",
  "kwh_per_sqm_year",
  "kg_per_sqm",
  "kg_co2_per_sqm_year",
  "month",
  "night",
  "year",
  "price_currency",
] as const;

export type Unit = (typeof units)[number];
export type ValidationCode = keyof typeof validationDetails;
export type ValidationReason = keyof typeof validationReasons;
type ProblemReasonCode = keyof typeof problemReasons;

type Value = string | number;
/** What a message without parameters takes: parameters are optional where this is assignable to them. */
export type NoParams = Record<never, never>;
type ParamsOf<Names extends readonly string[]> = { [Name in Names[number]]: Name extends "unit" ? Unit : Value };
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

/** The parameters of a validation code's detail; `invalid` and `invalid_value` take a reason and its parameters. */
export type FieldParams<C extends ValidationCode> = C extends "invalid" | "invalid_value"
  ? ReasonParams
  : ParamsOf<(typeof validationDetails)[C]>;

/** A text per plural category; `other` is always there (the only one of a symbol such as m²). */
export type PluralText = { readonly other: string } & { readonly [Category in Exclude<Intl.LDMLPluralRule, "other">]?: string };

/** The shape both catalogues have: exactly the keys above, every one with a text. */
export interface Messages {
  readonly problems: {
    readonly [C in ErrorCode]: { readonly title: string; readonly detail: string } & (C extends ProblemReasonCode
      ? { readonly reasons: { readonly [R in keyof (typeof problemReasons)[C]]: string } }
      : { readonly reasons?: never });
  };
  readonly validation: { readonly [C in ValidationCode]: string };
  readonly validation_reasons: { readonly [R in ValidationReason]: string };
  readonly units: { readonly [U in Unit]: PluralText };
  readonly mail: { readonly [K in MailKey]: { readonly subject: string; readonly text: string } };
}
