export { createClient, type ClientOptions, type ListingsClient, type RawClient } from "./client.js";
export { ApiError } from "./errors.js";
export { retryAfterMs, type RetryOptions } from "./retries.js";
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput } from "./webhooks.js";
export type { ListListingsQuery, ListingsResource } from "./listings.js";
export type { ListEventsQuery, EventsResource, SandboxEventTrigger } from "./events.js";
export type { CatalogQuery, CatalogResource } from "./catalog.js";
export type { UploadsResource } from "./uploads.js";
export type { Feed, FeedInput, FeedsResource } from "./feeds.js";
export type {
  ImportInput,
  ImportOptions,
  ImportResult,
  ImportResultsQuery,
  ImportsResource,
  ListingImport,
  ListingImportSummary,
} from "./imports.js";
export type * from "./types.js";
export type { paths, components, operations, webhooks } from "./generated/openapi.js";
