import { and, asc, desc, eq, getTableColumns, gt, lt, sql, type SQL, type SQLChunk } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { builtOnce } from "@/db/built-once";
import { accounts, agencies, listings } from "@/db/schema";
import type { Handle } from "@/db";
import { notFound } from "@/lib/base/errors";
import { toSequencePage, type SequenceCursor, type SequencePage } from "@/lib/base/cursor";
import type { ListedRow, ListingRow } from "../read-shape";
import { managedAgency, ownerScope, visibleTo, type ListingOwner } from "../scope";

const listedSelection = { row: listings, accountName: accounts.name, accountPhone: accounts.phone, agencyName: agencies.name };

/** Listings with who lists them: the agency's name for agency listings, else the account's name. */
export const listedQuery = (db: Handle) =>
  db
    .select(listedSelection)
    .from(listings)
    .innerJoin(accounts, eq(accounts.id, listings.accountId))
    .leftJoin(agencies, eq(agencies.id, listings.agencyId));

type ListedResult = { row: ListingRow; accountName: string; accountPhone: string | null; agencyName: string | null };

/** `listedQuery` where `condition` holds, built once (values as `sql.placeholder`s); `lock` takes the listing's row lock without waiting. */
const listedWhere = (condition: SQL, lock?: "lock") =>
  builtOnce<ListedResult>(listedSelection, (db) => {
    const query = listedQuery(db).where(condition);
    return lock ? query.for("update", { of: listings, noWait: true }) : query;
  });

const code = eq(listings.code, sql.placeholder("code"));
const accountId = sql.placeholder("accountId");
const agencyId = sql.placeholder("agencyId");

/** The statements of the busiest listing reads and writes, in the shapes `visibleTo` takes (own listings; own and the agency's). */
const statements = {
  byCode: {
    own: listedWhere(and(code, ownerScope(accountId, undefined))!),
    managed: listedWhere(and(code, ownerScope(accountId, agencyId))!),
  },
  lockByCode: {
    own: listedWhere(and(code, ownerScope(accountId, undefined))!, "lock"),
    managed: listedWhere(and(code, ownerScope(accountId, agencyId))!, "lock"),
    any: listedWhere(code, "lock"),
  },
  codeByRef: {
    own: codeWhere(and(eq(listings.externalRef, sql.placeholder("ref")), ownerScope(accountId, undefined))!),
    managed: codeWhere(and(eq(listings.externalRef, sql.placeholder("ref")), ownerScope(accountId, agencyId))!),
  },
};

function codeWhere(condition: SQL) {
  return builtOnce<{ code: string }>({ code: listings.code }, (db) =>
    db
      .select({ code: listings.code })
      .from(listings)
      .where(and(eq(listings.accountId, accountId), condition))
      .limit(1),
  );
}

/** The statement's shape for `owner` and the values it takes. */
const scoped = <T>(shapes: { own: T; managed: T }, owner: ListingOwner) => {
  const agency = managedAgency(owner);
  return agency === undefined
    ? { statement: shapes.own, values: { accountId: owner.accountId } }
    : { statement: shapes.managed, values: { accountId: owner.accountId, agencyId: agency } };
};

/** A listing `owner` may see, by its code, with its lister; undefined when there is none. */
export async function listedByCode(db: Handle, owner: ListingOwner, listingCode: string): Promise<ListedRow | undefined> {
  const { statement, values } = scoped(statements.byCode, owner);
  const [found] = await statement.run(db, { ...values, code: listingCode });
  return found && listedOf(found);
}

/**
 * Locks a listing by its code for the write of `db`'s transaction, with its lister: one `owner` may
 * see, or any account's (a deleted one included) without an owner. Fails with PostgreSQL's
 * `lock_not_available` when another write holds it.
 */
export async function lockListedByCode(db: Handle, owner: ListingOwner | undefined, listingCode: string): Promise<ListedRow | undefined> {
  const { statement, values } = owner ? scoped(statements.lockByCode, owner) : { statement: statements.lockByCode.any, values: {} };
  const [found] = await statement.run(db, { ...values, code: listingCode });
  return found && listedOf(found);
}

/** The columns a new listing is written with (the others take their defaults). */
export const insertedColumns = [
  "id",
  "code",
  "accountId",
  "agencyId",
  "externalRef",
  "type",
  "transaction",
  "status",
  "fields",
  "sourceUpdatedAt",
  "source",
  "city",
  "rooms",
  "priceEur",
  "addressKey",
  "latitude",
  "longitude",
  "createdAt",
  "updatedAt",
] as const;

export type InsertedListing = { [K in (typeof insertedColumns)[number]]: ListingRow[K] };

/**
 * Inserts a listing and answers it with its lister in one statement (the insert's `returning`
 * joined to the account and agency), built once: a write answers with what it wrote without a
 * second round trip. drizzle cannot express a select over an insert's rows, hence the SQL.
 */
const insertListed = builtOnce<ListedResult>(listedSelection, () => {
  const columns = getTableColumns(listings);
  const list = (chunks: SQLChunk[]) => sql.join(chunks, sql`, `);
  const statement = sql`with inserted as (
    insert into ${listings} (${list(insertedColumns.map((key) => sql.identifier(columns[key].name)))})
    values (${list(insertedColumns.map((key) => (key === "sourceUpdatedAt" ? sql`${sql.placeholder(key)}::timestamptz` : sql`${sql.param(sql.placeholder(key), columns[key])}`)))})
    returning *
  )
  select ${list(Object.values(columns).map((column) => sql`inserted.${sql.identifier(column.name)}`))}, ${accounts.name}, ${accounts.phone}, ${agencies.name}
  from inserted
  join ${accounts} on ${accounts.id} = inserted.account_id
  left join ${agencies} on ${agencies.id} = inserted.agency_id`;
  return { toSQL: () => dialect.sqlToQuery(statement) };
});
const dialect = new PgDialect();

/** Writes a new listing; answers it with its lister. */
export async function insertListing(db: Handle, values: InsertedListing): Promise<ListedRow> {
  // The column's encoder would refuse a null: the time goes as text, cast by the statement.
  const [inserted] = await insertListed.run(db, { ...values, sourceUpdatedAt: values.sourceUpdatedAt?.toISOString() ?? null });
  return listedOf(inserted);
}

/** The code of the caller's own listing with this `external_ref`, if any. */
export async function codeByRef(db: Handle, owner: ListingOwner, ref: string): Promise<string | undefined> {
  const { statement, values } = scoped(statements.codeByRef, owner);
  const [found] = await statement.run(db, { ...values, ref });
  return found?.code;
}

export const listedOf = (r: ListedResult): ListedRow => ({
  row: r.row,
  lister: r.agencyName ?? r.accountName,
  accountPhone: r.accountPhone,
  modSeq: r.row.modSeq,
});

async function selectListed(db: Handle, where: SQL, order: "newest" | "oldest", limit: number): Promise<ListedRow[]> {
  const rows = await listedQuery(db)
    .where(where)
    .orderBy(order === "newest" ? desc(listings.modSeq) : asc(listings.modSeq))
    .limit(limit);
  return rows.map(listedOf);
}

export async function findListed(db: Handle, where: SQL, notThere: () => Error = notFound): Promise<ListedRow> {
  const [found] = await selectListed(db, where, "newest", 1);
  if (!found) throw notThere();
  return found;
}

export const refCondition = (owner: ListingOwner, ref: string) =>
  and(eq(listings.accountId, owner.accountId), eq(listings.externalRef, ref), visibleTo(owner))!;

/** One page of `scope`, newest change first, from the cursor's place (a sequence list over `mod_seq`, lib/base/cursor.ts). */
export async function pageOf(db: Handle, scope: SQL, size: number, cursor: SequenceCursor | undefined): Promise<SequencePage<ListedRow>> {
  const page = (rows: ListedRow[]) => toSequencePage(rows, size, cursor, (listed) => listed.modSeq);
  if (!cursor) return page(await selectListed(db, scope, "newest", size + 1));
  if ("after" in cursor) return page(await selectListed(db, and(scope, lt(listings.modSeq, cursor.after))!, "newest", size + 1));
  if ("before" in cursor) return page(await selectListed(db, and(scope, gt(listings.modSeq, cursor.before))!, "oldest", size + 1));
  return page(await selectListed(db, scope, "oldest", size + 1));
}
