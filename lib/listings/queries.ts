import { and, asc, desc, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { accounts, agencies, listings, listingStatuses } from "@/db/schema";
import type { Queryable } from "@/db";
import type { ServiceContext } from "@/lib/context";
import { notFound } from "@/lib/errors";
import { parseOrThrow } from "@/lib/validation/zod";
import { isListingCode } from "./codes";
import { patterns } from "./validation/field-schemas";
import { refineStorable } from "./validation/text";
import { decodeCursor, toPage, type Cursor, type Page } from "./pagination";
import { toListingDetail, toListingItem, type ListingRow } from "./read-shape";
import { visibleTo, type ListingOwner } from "./scope";

export interface ListedRow {
  row: ListingRow;
  lister: string;
  accountPhone: string | null;
  modSeq: number;
}

/** Listings with who lists them: the agency's name for agency listings, else the account's name. */
export const listedQuery = (db: Queryable) =>
  db
    .select({ row: listings, accountName: accounts.name, accountPhone: accounts.phone, agencyName: agencies.name })
    .from(listings)
    .innerJoin(accounts, eq(accounts.id, listings.accountId))
    .leftJoin(agencies, eq(agencies.id, listings.agencyId));

type ListedResult = { row: ListingRow; accountName: string; accountPhone: string | null; agencyName: string | null };

export const listedOf = (r: ListedResult): ListedRow => ({
  row: r.row,
  lister: r.agencyName ?? r.accountName,
  accountPhone: r.accountPhone,
  modSeq: r.row.modSeq,
});

async function selectListed(db: Queryable, where: SQL, order: "newest" | "oldest", limit: number): Promise<ListedRow[]> {
  const rows = await listedQuery(db)
    .where(where)
    .orderBy(order === "newest" ? desc(listings.modSeq) : asc(listings.modSeq))
    .limit(limit);
  return rows.map(listedOf);
}

export const detailOf = (listed: ListedRow) => toListingDetail(listed.row, listed.lister, listed.accountPhone);
export const itemOf = (listed: ListedRow) => toListingItem(listed.row, listed.lister);

export async function findListed(db: Queryable, where: SQL): Promise<ListedRow> {
  const [found] = await selectListed(db, where, "newest", 1);
  if (!found) throw notFound();
  return found;
}

export async function getAccountListing({ ctx, input }: { ctx: ServiceContext; input: { owner: ListingOwner; code: string } }) {
  if (!isListingCode(input.code)) throw notFound();
  const { accountId, agency } = input.owner;
  const manager = agency !== null && agency.role !== "agent";
  const statements = preparedReads(ctx.database.db);
  const [found] = manager
    ? await statements.byCodeForManager.execute({ code: input.code, accountId, agencyId: agency.id })
    : await statements.byCodeForAccount.execute({ code: input.code, accountId });
  if (!found) throw notFound();
  return detailOf(listedOf(found));
}

/**
 * The detail read is the busiest listing query: prepared once per database handle, in the two
 * shapes `visibleTo` takes (own listings; own and the agency's for owners and admins).
 */
const prepared = new WeakMap<Queryable, ReturnType<typeof prepareReads>>();

function preparedReads(db: Queryable) {
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = prepareReads(db)));
  return statements;
}

function prepareReads(db: Queryable) {
  const byCode = (scope: SQL, name: string) =>
    listedQuery(db)
      .where(and(eq(listings.code, sql.placeholder("code")), scope, isNull(listings.deletedAt)))
      .prepare(name);
  const own = eq(listings.accountId, sql.placeholder("accountId"));
  return {
    byCodeForAccount: byCode(own, "listing_by_code"),
    byCodeForManager: byCode(or(own, eq(listings.agencyId, sql.placeholder("agencyId")))!, "listing_by_code_agency"),
  };
}

/** By the integrator's own id: `external_ref` is unique per account, so only the caller's own listings. */
export async function getAccountListingByRef({ ctx, input }: { ctx: ServiceContext; input: { owner: ListingOwner; ref: string } }) {
  // A ref outside the pattern every stored `external_ref` matches (U+0000 included) names no listing.
  if (input.ref.length > 100 || !patterns.external_ref.test(input.ref)) throw notFound();
  return detailOf(await findListed(ctx.database.db, refCondition(input.owner, input.ref)));
}

export const refCondition = (owner: ListingOwner, ref: string) =>
  and(eq(listings.accountId, owner.accountId), eq(listings.externalRef, ref), visibleTo(owner))!;

const perPage = z.coerce.number().int().min(1).max(100).default(50);

export const accountListingsQuery = z.object({
  status: z.enum(listingStatuses).optional(),
  per_page: perPage,
  fields: z.string().optional(),
  cursor: z.string().optional(),
});

/** A text filter: a control character (U+0000 included, which PostgreSQL cannot compare) is a 422. */
const textFilter = (maxLength: number) => z.string().max(maxLength).superRefine(refineStorable);

export const catalogQuery = z.object({
  type: textFilter(40).optional(),
  transaction: textFilter(40).optional(),
  city: textFilter(120).optional(),
  price_min: z.coerce.number().int().min(0).optional(),
  price_max: z.coerce.number().int().min(0).optional(),
  rooms: z.coerce.number().int().min(1).max(40).optional(),
  rooms_min: z.coerce.number().int().min(1).max(40).optional(),
  rooms_max: z.coerce.number().int().min(1).max(40).optional(),
  per_page: perPage,
  cursor: z.string().optional(),
});

async function page(db: Queryable, scope: SQL, size: number, cursor: Cursor | undefined): Promise<Page<ListedRow>> {
  if (!cursor) return toPage(await selectListed(db, scope, "newest", size + 1), size, cursor);
  if ("after" in cursor)
    return toPage(await selectListed(db, and(scope, lt(listings.modSeq, cursor.after))!, "newest", size + 1), size, cursor);
  if ("before" in cursor)
    return toPage(await selectListed(db, and(scope, gt(listings.modSeq, cursor.before))!, "oldest", size + 1), size, cursor);
  return toPage(await selectListed(db, scope, "oldest", size + 1), size, cursor);
}

export async function listAccountListings({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { owner: ListingOwner; query: Record<string, string> };
}) {
  const query = parseOrThrow(accountListingsQuery, input.query, "query");
  const scope = and(visibleTo(input.owner), query.status ? eq(listings.status, query.status) : undefined)!;
  return { query, page: await page(ctx.database.db, scope, query.per_page, decodeCursor(query.cursor)) };
}

/** The public catalog shows active listings only. */
const publicScope = and(eq(listings.status, "active"), isNull(listings.deletedAt))!;

export async function listCatalog({ ctx, input }: { ctx: ServiceContext; input: { query: Record<string, string> } }) {
  const query = parseOrThrow(catalogQuery, input.query, "query");
  const scope = and(
    publicScope,
    query.type ? eq(listings.type, query.type) : undefined,
    query.transaction ? eq(listings.transaction, query.transaction) : undefined,
    query.city ? eq(listings.city, query.city.trim().toLowerCase()) : undefined,
    query.price_min !== undefined ? gte(listings.priceEur, query.price_min) : undefined,
    query.price_max !== undefined ? lte(listings.priceEur, query.price_max) : undefined,
    query.rooms !== undefined ? eq(listings.rooms, query.rooms) : undefined,
    query.rooms_min !== undefined ? gte(listings.rooms, query.rooms_min) : undefined,
    query.rooms_max !== undefined ? lte(listings.rooms, query.rooms_max) : undefined,
  )!;
  return { query, page: await page(ctx.database.db, scope, query.per_page, decodeCursor(query.cursor)) };
}

export async function getCatalogListing({ ctx, input }: { ctx: ServiceContext; input: { code: string } }) {
  if (!isListingCode(input.code)) throw notFound();
  return itemOf(await findListed(ctx.database.db, and(eq(listings.code, input.code), publicScope)!));
}
