import type { components, webhooks } from "./generated/openapi.js";

type Schemas = components["schemas"];

/** A listing as `GET /account/listings/{code}` answers it: every field, with `status`, `moderation`, `media`, `etag`. */
export type ListingDetail = Schemas["ListingDetail"];
/** A listing in a page of `GET /account/listings`. */
export type AccountListingItem = Schemas["AccountListingsPage"]["data"][number];
/** A listing of the public catalog (`GET /listings`, `GET /listings/{code}`). */
export type CatalogListing = Schemas["ListingItem"];
/** `{ data, warnings }`: the answer of every listing read and write. */
export type ListingEnvelope = Schemas["ListingEnvelope"];
/** A listing's writable fields: the body of `PATCH /listings/{code}` (merge patch) and `POST /listings/validate`. */
export type ListingWrite = Schemas["ListingWrite"];
/**
 * The body of `POST /listings` and `PUT /listings/ref/{ref}`: the fields, and `source_updated_at`
 * (when your system last changed the listing; an older one than the stored is refused, 409 `stale_source`).
 */
export type ListingSourceWrite = ListingWrite & Schemas["SourceTime"];
export type Warning = Schemas["Warning"];
export type PhotoItem = Schemas["PhotoItem"];
export type UploadGrant = Schemas["UploadGrant"];
/** The answer of `PUT /listings/{code}/photos`: how many photos went into processing. */
export type PhotosQueued = Schemas["PhotosQueued"];
/** An event of `GET /events`, the same form as a webhook's body. */
export type Event = Schemas["Event"];
export type Problem = Schemas["Problem"];
/** A stable problem code; codes added later arrive as other strings. */
export type ProblemCode = Problem["code"] | (string & {});
/** One item of a 422's `errors[]`. */
export type FieldError = NonNullable<Problem["errors"]>[number];
export type ListingStatus = ListingDetail["status"];
export type Language = "ro" | "en";

/** The body of each webhook delivery, by its `type`. */
export type WebhookEvent = {
  [Type in keyof webhooks]: NonNullable<webhooks[Type]["post"]>["requestBody"]["content"]["application/json"];
}[keyof webhooks];

/** What the server answered, beside the body: Stripe's `lastResponse`. */
export interface ResponseInfo {
  status: number;
  headers: Headers;
  /** `X-Request-Id`: quote it when asking about a request. */
  requestId: string | null;
}

/** A helper's result: the body, with the response it came in as `lastResponse` (not enumerable). */
export type WithResponse<T> = T & { readonly lastResponse: ResponseInfo };
