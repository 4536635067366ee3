import createFetchClient, { createQuerySerializer, type Client } from "openapi-fetch";
import { catalogResource, type CatalogResource } from "./catalog.js";
import { eventsResource, type EventsResource } from "./events.js";
import { feedsResource, type FeedsResource } from "./feeds.js";
import type { paths } from "./generated/openapi.js";
import { idempotencyKeys } from "./idempotency.js";
import { listingsResource, type ListingsResource } from "./listings.js";
import { retryingFetch, type RetryOptions } from "./retries.js";
import type { Language } from "./types.js";
import { uploadsResource, type UploadsResource } from "./uploads.js";

export interface ClientOptions {
  /** The API's base address, ending in `/api/v1` (sandbox or production). */
  baseUrl: string;
  /** The whole key, `<id>|svc_test_…` or `<id>|svc_live_…`, sent as `Authorization: Bearer <key>`. Server side only. */
  apiKey: string;
  /**
   * Language of `title`, `detail` and labels, sent as the `locale` query parameter: the one choice
   * that wins over the account's language (`Accept-Language` comes after it). Codes are never translated.
   */
  language?: Language;
  /** `fetch` to send requests with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of 429 and 503 (a number is `{ retries }`); default 2 retries. */
  retries?: number | RetryOptions;
}

/** The raw typed client (openapi-fetch over the generated `paths`) for every operation the helpers do not cover. */
export type RawClient = Client<paths>;

export interface ListingsClient {
  raw: RawClient;
  listings: ListingsResource;
  events: EventsResource;
  catalog: CatalogResource;
  uploads: UploadsResource;
  feeds: FeedsResource;
}

/**
 * A client of the Listings Publishing API v1. The helpers answer the body (with `lastResponse`) and
 * throw an `ApiError` for anything but 2xx; `raw` answers openapi-fetch's `{ data, error, response }`.
 * Both send the key, the `locale`, an `Idempotency-Key` on the writes that accept one, and retry.
 */
export function createClient(options: ClientOptions): ListingsClient {
  const retry = typeof options.retries === "number" ? { retries: options.retries } : options.retries;
  const send = retryingFetch((request) => (options.fetch ?? globalThis.fetch)(request), retry);
  const query = createQuerySerializer();
  const raw = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    fetch: send,
    headers: { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" },
    // The caller's own `locale` on a call wins over the client's.
    querySerializer: (params) => query(options.language ? { locale: options.language, ...params } : params),
  });
  raw.use(idempotencyKeys);
  return {
    raw,
    listings: listingsResource(raw),
    events: eventsResource(raw),
    catalog: catalogResource(raw),
    uploads: uploadsResource(raw, send),
    feeds: feedsResource(raw),
  };
}
