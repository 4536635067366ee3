import { and, asc, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import { accounts, agencies, listings } from "@/db/schema";
import type { Handle } from "@/db";
import { notFound } from "@/lib/base/errors";
import { toSequencePage, type SequenceCursor, type SequencePage } from "@/lib/base/cursor";
import type { ListedRow, ListingRow } from "../read-shape";
import { visibleTo, type ListingOwner } from "../scope";

/** Listings with who lists them: the agency's name for agency listings, else the account's name. */
export const listedQuery = (db: Handle) =>
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

async function selectListed(db: Handle, where: SQL, order: "newest" | "oldest", limit: number): Promise<ListedRow[]> {
  const rows = await listedQuery(db)
    .where(where)
    .orderBy(order === "newest" ? desc(listings.modSeq) : asc(listings.modSeq))
    .limit(limit);
  return rows.map(listedOf);
}

export async function findListed(db: Handle, where: SQL): Promise<ListedRow> {
  const [found] = await selectListed(db, where, "newest", 1);
  if (!found) throw notFound();
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
