import { and, eq } from "drizzle-orm";
import { listings } from "@/db/schema";
import { readMayLag, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { patterns } from "./validation/field-schemas";
import { isListingCode } from "./codes";
import { detailOf, itemOf, type ListedRow } from "./read-shape";
import { findListed, listedByCode, refCondition } from "./internal/queries";
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
  const found = await listedByCode(ctx.db, ctx.actor, input.code);
  if (!found) throw notFound();
  return found;
}

/** By the integrator's own id: `external_ref` is unique per account, so only the caller's own listings. */
export async function getAccountListingByRef({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: { ref: string } }) {
  // A ref outside the pattern every stored `external_ref` matches (U+0000 included) names no listing.
  if (input.ref.length > 100 || !patterns.external_ref.test(input.ref)) throw notFound();
  return detailOf(await findListed(ctx.db, refCondition(ctx.actor, input.ref)));
}

/** One listing of the public catalog: a read that may lag, on a replica when there are some. */
export async function getCatalogListing({ ctx, input }: { ctx: ServiceContext; input: { code: string } }) {
  if (!isListingCode(input.code)) throw notFound();
  // Whoever asks, and whatever the code names, one answer: the catalog is public data and cannot say
  // whose a listing is, so it says where an owner reads one that is not public.
  const notInCatalog = () => new AppError("not_found", { reason: "not_in_catalog", code: input.code });
  return itemOf(await readMayLag(ctx, (reader) => findListed(reader.db, and(eq(listings.code, input.code), publicScope)!, notInCatalog)));
}
