import { z } from "zod";
import { createDocument } from "zod-openapi";
import { config } from "@/lib/platform/config";
import { listingStatuses } from "@/db/schema";
import { listingWriteSchema } from "@/lib/domain/listings/validation/field-schemas";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { moderationDecision } from "@/lib/domain/listings/moderate";
import { listingCollectionSchema, listingEnvelopeSchema, listingItemSchema, warningSchema } from "@/lib/domain/listings/schemas";
import { apiRelease } from "./info";
import { operation } from "./operations";

const code = z.object({ code: z.string().length(8).meta({ description: "Public code of the listing." }) });
const ref = z.object({ ref: z.string().min(1).max(100).meta({ description: "The integrator's own id (`external_ref`)." }) });
const ifMatch = z.object({
  "if-match": z.string().optional().meta({
    description: "The `etag` last read; 412 when the listing changed since. `*`, lists and unquoted tags accepted; weak tags never match.",
  }),
});
const etagHeader = { ETag: { description: "Version of the listing.", schema: { type: "string" } } };
const eventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    created_at: z.string().meta({ format: "date-time" }),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "Event" });
const pageParams = {
  per_page: z.coerce.number().int().min(1).max(100).optional().meta({ description: "1–100, default 50." }),
  cursor: z.string().optional().meta({ description: "Opaque cursor from `meta.next_cursor` / `meta.prev_cursor` or a `links` member." }),
};

const stateNote = `Transitions decided beyond the spec's table: \`pause\` works from \`active\` only (409 \`listing_action_refused\` otherwise; pausing a paused listing answers 200 and changes nothing); \`sold\` from \`active\` or \`paused\` (sold again: 200, nothing changes); \`resume\` from \`paused\` only, 404 otherwise as the spec says. Listings in \`sold\` or \`hidden\` cannot be edited (409).`;

/** The OpenAPI 3.1 document of v1, generated from the same zod schemas that validate requests. */
export function openApiDocument() {
  const listingsTag = ["Listings"];
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Listings Publishing API",
      version: apiRelease,
      description:
        "Publish and manage real-estate listings on behalf of an account. Errors are RFC 9457 problems with stable codes; every response carries `X-Request-Id` and rate-limit headers. Bodies up to 1 MiB. Unknown query parameters are ignored; unknown body members are ignored and reported in `warnings[]`; read-only members are refused (422 `invalid`).",
    },
    servers: [{ url: `${config().APP_URL}/api/v1`, description: config().APP_ENV }],
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "`<id>|svc_test_<secret>` (sandbox) or `<id>|svc_live_<secret>` (production).",
        },
      },
    },
    paths: {
      "/ping": {
        get: operation({
          summary: "Check a key",
          tags: ["Keys"],
          permission: "any key",
          responses: { 200: { description: "The key and account the request acts for." } },
        }),
      },
      "/schema": {
        get: operation({
          summary: "Vocabulary",
          description:
            "Every code list with `ro`/`en` labels, currencies with reference rates, retired codes and field metadata. 60 requests a minute per address. Supports `If-None-Match` (304).",
          tags: ["Vocabulary"],
          permission: "public",
          responses: {
            200: { description: "The vocabulary.", headers: etagHeader },
            304: { description: "Unchanged since `If-None-Match`." },
          },
        }),
      },
      "/listings": {
        get: operation({
          summary: "Public catalog",
          description: "Active listings only, newest change first, in the list shape. Prices compare in euros.",
          tags: ["Catalog"],
          permission: "any key",
          params: {
            query: z.object({
              type: z.string().optional(),
              transaction: z.string().optional(),
              city: z.string().optional().meta({ description: "Exact city name, case-insensitive." }),
              price_min: z.coerce.number().int().optional().meta({ description: "In euros." }),
              price_max: z.coerce.number().int().optional().meta({ description: "In euros." }),
              rooms: z.coerce.number().int().optional(),
              rooms_min: z.coerce.number().int().optional(),
              rooms_max: z.coerce.number().int().optional(),
              ...pageParams,
            }),
          },
          responses: { 200: { description: "A page of listings.", schema: listingCollectionSchema(listingItemSchema, "CatalogPage") } },
          errors: [422],
        }),
        post: operation({
          summary: "Create a listing",
          description:
            "The new listing goes to moderation (`pending`). `Idempotency-Key` (up to 64 characters, per key, 10 minutes): the same key and body replays the first 2xx answer with `Idempotent-Replayed: true`; another body gives 422 `idempotency_key_reused`; a retry while the first runs gives 409 `idempotency_key_in_use`. A request refused with a 4xx (or failing with a 5xx) keeps no record: the key is released, so the corrected body can be sent with the same key.",
          tags: listingsTag,
          permission: "listings:write",
          params: { header: z.object({ "idempotency-key": z.string().max(64).optional() }) },
          body: { schema: listingWriteSchema, example: exampleApartment },
          responses: {
            201: {
              description: "Created.",
              schema: listingEnvelopeSchema,
              headers: { ...etagHeader, Location: { description: "`/api/v1/account/listings/{code}`", schema: { type: "string" } } },
            },
          },
          errors: [400, 409, 413, 415, 422],
        }),
      },
      "/listings/validate": {
        post: operation({
          summary: "Validate a listing body",
          description: "The same rules as creation; nothing is written.",
          tags: listingsTag,
          permission: "listings:write",
          body: { schema: listingWriteSchema },
          responses: {
            200: {
              description: "Valid; `warnings[]` lists what would be ignored.",
              schema: z.object({ data: z.object({ valid: z.literal(true) }), warnings: z.array(warningSchema) }),
            },
          },
          errors: [400, 413, 415, 422],
        }),
      },
      "/listings/{code}": {
        get: operation({
          summary: "One catalog listing",
          tags: ["Catalog"],
          permission: "any key",
          params: { path: code },
          responses: { 200: { description: "An active listing.", schema: z.object({ data: listingItemSchema }) } },
          errors: [404],
        }),
        patch: operation({
          summary: "Edit a listing (JSON Merge Patch)",
          description: `\`application/merge-patch+json\` or \`application/json\`. Unpublished listings (\`draft\`, \`pending\`, \`rejected\`) change at once (200; a rejected listing goes back to \`pending\`). Published ones (\`active\`, \`paused\`, \`unconfirmed\`) keep their live version and hold the edit for moderation (202, \`moderation.edit_pending\`); editing an \`unconfirmed\` listing confirms it (\`listing.published\`). A patch that changes nothing writes nothing and answers 200 with \`X-Service-Unchanged: true\`. ${stateNote}`,
          tags: listingsTag,
          permission: "listings:write",
          params: { path: code, header: ifMatch },
          body: { schema: listingWriteSchema.partial(), types: ["application/merge-patch+json", "application/json"] },
          responses: {
            200: { description: "Edited directly.", schema: listingEnvelopeSchema, headers: etagHeader },
            202: { description: "Edit held for moderation.", schema: listingEnvelopeSchema, headers: etagHeader },
          },
          errors: [400, 404, 409, 412, 413, 415, 422],
        }),
        delete: operation({
          summary: "Delete a listing",
          description:
            "From any state; refused with 409 `listing_action_refused` while reports are open. Event `listing.withdrawn` with `by: owner`, `deleted: true`.",
          tags: listingsTag,
          permission: "listings:write",
          params: { path: code },
          responses: { 204: { description: "Deleted." } },
          errors: [404, 409],
        }),
      },
      ...Object.fromEntries(
        (
          [
            ["pause", "Pause an active listing (`listing.paused`)."],
            ["resume", "A paused listing becomes active without new moderation (`listing.reactivated`); 404 when not paused."],
            ["sold", "Mark an active or paused listing sold or rented (`listing.sold`)."],
          ] as const
        ).map(([action, summary]) => [
          `/listings/{code}/${action}`,
          {
            post: operation({
              summary,
              description: stateNote,
              tags: listingsTag,
              permission: "listings:write",
              params: { path: code },
              responses: { 200: { description: "The listing after the change.", schema: listingEnvelopeSchema, headers: etagHeader } },
              errors: [404, 409],
            }),
          },
        ]),
      ),
      "/listings/ref/{ref}": {
        put: operation({
          summary: "Create or update by your own id",
          description:
            "New `ref`: created as by `POST /listings` (201). Known `ref`: the body applies as a merge patch (200, or 202 for a published listing). The same body twice writes nothing and answers `X-Service-Unchanged: true`. `external_ref` in the body, when sent, must equal `ref`.",
          tags: listingsTag,
          permission: "listings:write",
          params: { path: ref, header: ifMatch },
          body: { schema: listingWriteSchema.partial() },
          responses: {
            200: { description: "Updated (or unchanged).", schema: listingEnvelopeSchema, headers: etagHeader },
            201: { description: "Created.", schema: listingEnvelopeSchema, headers: etagHeader },
            202: { description: "Edit held for moderation.", schema: listingEnvelopeSchema, headers: etagHeader },
          },
          errors: [400, 409, 412, 413, 415, 422],
        }),
      },
      "/account/listings": {
        get: operation({
          summary: "Your listings",
          description:
            "The caller's listings in any state (and colleagues' for agency owners and admins; agents see their own), newest change first. Items carry the fields up to `attribution`; with `fields` any member of the detail shape can be chosen.",
          tags: listingsTag,
          permission: "listings:read",
          params: {
            query: z.object({
              status: z.enum(listingStatuses).optional(),
              fields: z.string().optional().meta({ description: "Comma-separated names, e.g. `code,external_ref,etag,updated_at`." }),
              ...pageParams,
            }),
          },
          responses: {
            200: { description: "A page of listings.", schema: listingCollectionSchema(listingItemSchema, "AccountListingsPage") },
          },
          errors: [422],
        }),
      },
      "/account/listings/{code}": {
        get: operation({
          summary: "One of your listings",
          tags: listingsTag,
          permission: "listings:read",
          params: { path: code },
          responses: { 200: { description: "The listing.", schema: listingEnvelopeSchema, headers: etagHeader } },
          errors: [404],
        }),
      },
      "/account/listings/ref/{ref}": {
        get: operation({
          summary: "One of your listings by your own id",
          tags: listingsTag,
          permission: "listings:read",
          params: { path: ref },
          responses: { 200: { description: "The listing.", schema: listingEnvelopeSchema, headers: etagHeader } },
          errors: [404],
        }),
      },
      "/events": {
        get: operation({
          summary: "Events",
          description:
            "Events of the last 35 days, oldest first. While `meta.next` is not null, request the next page with `after` = `meta.next`.",
          tags: ["Events"],
          permission: "listings:read",
          params: {
            query: z.object({
              after: z.string().optional().meta({ description: "Id of the last processed event." }),
              limit: z.coerce.number().int().min(1).max(500).optional().meta({ description: "1–500, default 100." }),
            }),
          },
          responses: {
            200: {
              description: "A page of events.",
              schema: z.object({ data: z.array(eventSchema), meta: z.object({ next: z.string().nullable() }) }),
            },
          },
          errors: [422],
        }),
      },
      "/sandbox/listings/{code}/moderation": {
        post: operation({
          summary: "Simulate moderation (sandbox only)",
          description:
            "Same effects and events as real moderation: `approve` publishes a pending listing or applies a waiting edit; `reject` (any state) discards a waiting edit; `hide` (any state). 404 in production.",
          tags: ["Sandbox"],
          permission: "listings:write",
          params: { path: code },
          body: { schema: moderationDecision },
          responses: { 200: { description: "The listing after the decision.", schema: listingEnvelopeSchema, headers: etagHeader } },
          errors: [404, 409, 422],
        }),
      },
    },
  });
}
