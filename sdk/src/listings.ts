import type { Client } from "openapi-fetch";
import { unwrap, unwrapEmpty } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { importsResource } from "./imports.js";
import { paginate } from "./pagination.js";
import type {
  AccountListingItem,
  ListingEnvelope,
  ListingSourceWrite,
  ListingWrite,
  PhotosQueued,
  ResponseInfo,
  WithResponse,
} from "./types.js";

export type ListListingsQuery = Omit<NonNullable<paths["/account/listings"]["get"]["parameters"]["query"]>, "cursor">;
type PhotoList = paths["/listings/{code}/photos"]["put"]["requestBody"]["content"]["application/json"];
type ModerationDecision = paths["/sandbox/listings/{code}/moderation"]["post"]["requestBody"]["content"]["application/json"];
type Envelope = Promise<WithResponse<ListingEnvelope>>;

/** The account's listings: `/listings`, `/account/listings` and the sandbox's simulated moderation. */
export function listingsResource(raw: Client<paths>) {
  const path = (code: string) => ({ params: { path: { code } } });
  return {
    /** `POST /listings`: a new listing, to moderation (201). Sent with an `Idempotency-Key` (yours or a new one), kept across retries. */
    create: (body: ListingSourceWrite, options: { idempotencyKey?: string } = {}): Envelope =>
      unwrap(raw.POST("/listings", { body, params: { header: { "idempotency-key": options.idempotencyKey } } })),

    /** `POST /listings/validate`: the answer a create would give, writing nothing. */
    validate: (body: ListingWrite) => unwrap(raw.POST("/listings/validate", { body })),

    /** `GET /account/listings/{code}`: the detail, in any state, with the `etag` for `update`. */
    get: (code: string): Envelope => unwrap(raw.GET("/account/listings/{code}", path(code))),

    /** `GET /account/listings/ref/{ref}`: the detail by your own id (`external_ref`). */
    getByRef: (ref: string): Envelope => unwrap(raw.GET("/account/listings/ref/{ref}", { params: { path: { ref } } })),

    /**
     * `PATCH /listings/{code}` as a JSON Merge Patch: sent fields replace, `null` empties, others stay.
     * With `ifMatch` (the `etag` last read) a listing changed meanwhile is refused with 412
     * `listing_changed_meanwhile`. 200 applied; 202 sent to moderation (an active listing).
     */
    update: (code: string, patch: ListingWrite, options: { ifMatch?: string } = {}): Envelope =>
      unwrap(
        raw.PATCH("/listings/{code}", {
          params: { path: { code }, header: { "if-match": options.ifMatch } },
          body: patch,
          headers: { "Content-Type": "application/merge-patch+json" },
        }),
      ),

    /**
     * `PUT /listings/ref/{ref}`: creates the listing under your id (201) or applies the body to it as a
     * patch (200/202; `X-Service-Unchanged: true` when nothing changed). Safe to repeat.
     */
    putByRef: (ref: string, body: ListingSourceWrite, options: { ifMatch?: string } = {}): Envelope =>
      unwrap(raw.PUT("/listings/ref/{ref}", { params: { path: { ref }, header: { "if-match": options.ifMatch } }, body })),

    /** `DELETE /listings/{code}` (204); 409 `listing_action_refused` while a report is open. */
    delete: (code: string): Promise<ResponseInfo> => unwrapEmpty(raw.DELETE("/listings/{code}", path(code))),

    /** `POST /listings/{code}/pause`: an active listing leaves search until resumed. */
    pause: (code: string): Envelope => unwrap(raw.POST("/listings/{code}/pause", path(code))),

    /** `POST /listings/{code}/resume`: a paused listing becomes active again; 404 `not_found` when it is not paused. */
    resume: (code: string): Envelope => unwrap(raw.POST("/listings/{code}/resume", path(code))),

    /** `POST /listings/{code}/sold`: an active or paused listing is sold or rented. */
    markSold: (code: string): Envelope => unwrap(raw.POST("/listings/{code}/sold", path(code))),

    /** `PUT /listings/{code}/photos`: the complete ordered list (the first is the cover), processed in the background (202). */
    setPhotos: (code: string, photos: PhotoList["photos"]): Promise<WithResponse<PhotosQueued>> =>
      unwrap(raw.PUT("/listings/{code}/photos", { params: { path: { code } }, body: { photos } })),

    /**
     * `GET /account/listings`, every page: `for await (const listing of client.listings.list({ status: "active" }))`.
     * Follows `meta.next_cursor` with the `cursor` parameter until it is null.
     */
    list: (query: ListListingsQuery = {}): AsyncGenerator<AccountListingItem, void, undefined> =>
      paginate(async (cursor) => {
        const page = await unwrap(raw.GET("/account/listings", { params: { query: { ...query, cursor } } }));
        return { items: page.data, next: page.meta.next_cursor };
      }),

    /** Bulk imports: `imports.create(ndjsonOrLines)`, `imports.list()`, `imports.get(id)`, `imports.results(id)`. */
    imports: importsResource(raw),

    /** Sandbox only: `POST /sandbox/listings/{code}/moderation`, a moderator's decision with its real effects and events. */
    simulateModeration: (code: string, decision: ModerationDecision): Envelope =>
      unwrap(raw.POST("/sandbox/listings/{code}/moderation", { params: { path: { code } }, body: decision })),
  };
}

export type ListingsResource = ReturnType<typeof listingsResource>;
