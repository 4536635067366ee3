import type { Client } from "openapi-fetch";
import { unwrap } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { paginate } from "./pagination.js";
import type { WithResponse } from "./types.js";

type Schemas = import("./generated/openapi.js").components["schemas"];
export type ListingImport = Schemas["ListingImport"];
export type ImportResult = Schemas["ImportResult"];
export type ImportAccepted = Schemas["ImportAccepted"];
export type ListingImportSummary = Schemas["ListingImportSummary"];
export type ImportResultsQuery = NonNullable<paths["/listings/imports/{id}"]["get"]["parameters"]["query"]>;
type ImportQuery = NonNullable<paths["/listings/imports"]["post"]["parameters"]["query"]>;

/**
 * How an import applies: `mode: "full"` (the file is the whole inventory: the account's active
 * listings whose ref it lacks are withdrawn) within `maxWithdrawals`; without them, `upsert`.
 */
export interface ImportOptions {
  idempotencyKey?: string;
  mode?: ImportQuery["mode"];
  maxWithdrawals?: number;
}

/** What an import is made of: NDJSON text, the listing bodies (one a line), or the key of an uploaded file. */
export type ImportInput = string | readonly unknown[] | { key: string };

const ndjson = (lines: readonly unknown[]): string => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

/** `POST` and `GET /listings/imports`, `GET` and `DELETE /listings/imports/{id}`: bulk imports of listings by `external_ref`. */
export function importsResource(raw: Client<paths>) {
  const page = (id: string, query: ImportResultsQuery) => unwrap(raw.GET("/listings/imports/{id}", { params: { path: { id }, query } }));
  return {
    /**
     * Queues an import (202, `data.id`). Text and arrays go as NDJSON in the body (at most 10 MiB and
     * 10 000 lines); `{ key }` names a file sent with `uploads`. With `idempotencyKey` a repeat
     * answers the same import; `mode: "full"` and `maxWithdrawals` sync the whole inventory.
     */
    create: (input: ImportInput, options: ImportOptions = {}): Promise<WithResponse<ImportAccepted>> => {
      const header = { "idempotency-key": options.idempotencyKey };
      const query = { mode: options.mode, max_withdrawals: options.maxWithdrawals };
      if (typeof input === "object" && !Array.isArray(input) && "key" in input) {
        return unwrap(raw.POST("/listings/imports", { params: { header, query }, body: { key: input.key } }));
      }
      const text = typeof input === "string" ? input : ndjson(input as readonly unknown[]);
      return unwrap(
        raw.POST("/listings/imports", {
          params: { header, query },
          body: text,
          bodySerializer: (body: unknown) => body as string,
          headers: { "Content-Type": "application/x-ndjson" },
        }),
      );
    },

    /** `GET /listings/imports/{id}`: status, counts and one page of line results (`limit`, `after`). */
    get: (id: string, query: ImportResultsQuery = {}): Promise<WithResponse<{ data: ListingImport; meta: { next: string | null } }>> =>
      page(id, query),

    /**
     * `DELETE /listings/imports/{id}`: cancels a queued or running import; the lines applied so far
     * stay applied. Answers the import (the first page of its results); 409 `import_ended` once it has ended.
     */
    cancel: (id: string): Promise<WithResponse<{ data: ListingImport; meta: { next: string | null } }>> =>
      unwrap(raw.DELETE("/listings/imports/{id}", { params: { path: { id } } })),

    /**
     * `GET /listings/imports`: every import of the account, newest first, page after page, each
     * without its results; `feedId` keeps one feed's.
     */
    list: (options: { feedId?: string; perPage?: number } = {}): AsyncGenerator<ListingImportSummary, void, undefined> =>
      paginate(async (cursor) => {
        const query = { cursor, per_page: options.perPage, feed_id: options.feedId };
        const { data, meta } = await unwrap(raw.GET("/listings/imports", { params: { query } }));
        return { items: data, next: meta.next_cursor };
      }),

    /** Every line result of the import, page after page (`after` = `meta.next` until it is null). */
    results: (id: string, query: Omit<ImportResultsQuery, "after"> = {}): AsyncGenerator<ImportResult, void, undefined> =>
      paginate(async (cursor) => {
        const { data, meta } = await page(id, { ...query, after: cursor });
        return { items: data.results, next: meta.next };
      }),
  };
}

export type ImportsResource = ReturnType<typeof importsResource>;
