import { and, eq, gte, like, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { listings, listingStatuses } from "@/db/schema";
import { readMayLag, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { decodeSequenceCursor } from "@/lib/base/cursor";
import { refineStorable } from "./validation/text";
import { searchKey } from "./internal/search-key";
import { containsPattern, searchKeySql } from "./internal/search-key-sql";
import { pageOf } from "./internal/queries";
import { publicScope, visibleTo } from "./scope";

const perPage = z.coerce.number().int().min(1).max(100).default(50).meta({ description: "1–100, default 50." });
const cursor = z
  .string()
  .optional()
  .meta({ description: "Opaque cursor from `meta.next_cursor` / `meta.prev_cursor` or a `links` member." });

/**
 * Queries of the two lists, parsed by the endpoint wrapper with the route declarations that name
 * them (app/api/v1/…/declaration.ts), so the services receive them typed.
 */
export const accountListingsQuery = z.object({
  status: z.enum(listingStatuses).optional(),
  per_page: perPage,
  cursor,
});
export type AccountListingsQuery = z.output<typeof accountListingsQuery>;

/** A text filter: a control character (U+0000 included, which PostgreSQL cannot compare) is a 422. */
const textFilter = (maxLength: number) => z.string().max(maxLength).superRefine(refineStorable);

/** The portal's text search over an account's listings (`listAccountListings`' `search`). */
export const accountListingsSearch = textFilter(200);

export const catalogQuery = z.object({
  type: textFilter(40).optional(),
  transaction: textFilter(40).optional(),
  city: textFilter(120).optional().meta({
    description:
      "City name, whole; case, diacritics and extra spaces do not count (`Bucuresti`, `bucurești` and `BUCUREȘTI` all find `București`).",
  }),
  price_min: z.coerce.number().int().min(0).optional().meta({ description: "In euros." }),
  price_max: z.coerce.number().int().min(0).optional().meta({ description: "In euros." }),
  rooms: z.coerce.number().int().min(1).max(40).optional(),
  rooms_min: z.coerce.number().int().min(1).max(40).optional(),
  rooms_max: z.coerce.number().int().min(1).max(40).optional(),
  per_page: perPage,
  cursor,
});
export type CatalogQuery = z.output<typeof catalogQuery>;

/**
 * The account's listings (and its agency's for an owner or admin), newest change first. `search`
 * (the portal's, not the API's) keeps those whose title, code, `external_ref` or city contains it,
 * case and diacritics aside.
 */
export async function listAccountListings({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { query: AccountListingsQuery; search?: string };
}) {
  const { query } = input;
  const key = input.search === undefined ? "" : searchKey(input.search);
  const scope = and(visibleTo(ctx.actor), query.status ? eq(listings.status, query.status) : undefined, key ? containing(key) : undefined)!;
  return { query, page: await pageOf(ctx.db, scope, query.per_page, decodeSequenceCursor(query.cursor)) };
}

function containing(key: string): SQL {
  const pattern = containsPattern(key);
  return or(
    like(searchKeySql(sql`${listings.fields}->>'title'`), pattern),
    like(listings.city, pattern),
    like(sql`lower(${listings.code})`, pattern),
    like(sql`lower(${listings.externalRef})`, pattern),
  )!;
}

/** The public catalog: a read that may lag (a listing approved a moment ago can be missing), on a replica when there are some. */
export async function listCatalog({ ctx, input }: { ctx: ServiceContext; input: { query: CatalogQuery } }) {
  const { query } = input;
  const scope = and(
    publicScope,
    query.type ? eq(listings.type, query.type) : undefined,
    query.transaction ? eq(listings.transaction, query.transaction) : undefined,
    query.city ? eq(listings.city, searchKey(query.city)) : undefined,
    query.price_min !== undefined ? gte(listings.priceEur, query.price_min) : undefined,
    query.price_max !== undefined ? lte(listings.priceEur, query.price_max) : undefined,
    query.rooms !== undefined ? eq(listings.rooms, query.rooms) : undefined,
    query.rooms_min !== undefined ? gte(listings.rooms, query.rooms_min) : undefined,
    query.rooms_max !== undefined ? lte(listings.rooms, query.rooms_max) : undefined,
  )!;
  const cursor = decodeSequenceCursor(query.cursor);
  return { query, page: await readMayLag(ctx, (reader) => pageOf(reader.db, scope, query.per_page, cursor)) };
}
