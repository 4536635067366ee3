import type { Client } from "openapi-fetch";
import { unwrap } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { paginate } from "./pagination.js";
import type { CatalogListing, WithResponse } from "./types.js";

export type CatalogQuery = Omit<NonNullable<paths["/listings"]["get"]["parameters"]["query"]>, "cursor">;

/** The public catalog: active listings of every account, in the list shape. */
export function catalogResource(raw: Client<paths>) {
  return {
    /** `GET /listings`, every page, following `meta.next_cursor` with `cursor`. */
    list: (query: CatalogQuery = {}): AsyncGenerator<CatalogListing, void, undefined> =>
      paginate(async (cursor) => {
        const page = await unwrap(raw.GET("/listings", { params: { query: { ...query, cursor } } }));
        return { items: page.data, next: page.meta.next_cursor };
      }),

    /** `GET /listings/{code}`: one active listing. */
    get: (code: string): Promise<WithResponse<{ data: CatalogListing }>> =>
      unwrap(raw.GET("/listings/{code}", { params: { path: { code } } })),
  };
}

export type CatalogResource = ReturnType<typeof catalogResource>;
