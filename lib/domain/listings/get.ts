import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Handle } from "@/db";
import { listings } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { patterns } from "./validation/field-schemas";
import { isListingCode } from "./codes";
import { detailOf, itemOf, type ListedRow } from "./read-shape";
import { findListed, listedOf, listedQuery, refCondition } from "./internal/queries";
import { publicScope } from "./scope";

/** A listing the acting account may see (its own, and its agency's for owners and admins). */
export async function getAccountListing({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { code: string } }) {
  return detailOf(await getManagedListing({ ctx, input }));
}

/** The same listing as stored (fields, pending edit, state, version) with its lister: the portal's owner pages. */
export async function getManagedListing({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { code: string };
}): Promise<ListedRow> {
  if (!isListingCode(input.code)) throw notFound();
  const { accountId, agency } = ctx.actor;
  const manager = agency !== null && agency.role !== "agent";
  const statements = preparedReads(ctx.db);
  const [found] = manager
    ? await statements.byCodeForManager.execute({ code: input.code, accountId, agencyId: agency.id })
    : await statements.byCodeForAccount.execute({ code: input.code, accountId });
  if (!found) throw notFound();
  return listedOf(found);
}

/**
 * The detail read is the busiest listing query: prepared once per database handle, in the two
 * shapes `visibleTo` takes (own listings; own and the agency's for owners and admins).
 */
const prepared = new WeakMap<Handle, ReturnType<typeof prepareReads>>();

function preparedReads(db: Handle) {
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = prepareReads(db)));
  return statements;
}

function prepareReads(db: Handle) {
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
export async function getAccountListingByRef({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { ref: string } }) {
  // A ref outside the pattern every stored `external_ref` matches (U+0000 included) names no listing.
  if (input.ref.length > 100 || !patterns.external_ref.test(input.ref)) throw notFound();
  return detailOf(await findListed(ctx.db, refCondition(ctx.actor, input.ref)));
}

export async function getCatalogListing({ ctx, input }: { ctx: ServiceContext; input: { code: string } }) {
  if (!isListingCode(input.code)) throw notFound();
  return itemOf(await findListed(ctx.db, and(eq(listings.code, input.code), publicScope)!));
}
