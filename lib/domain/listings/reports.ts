import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { listingReports, listings } from "@/db/schema";
import { withTransaction, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { rateLimiter, type RateRule } from "@/lib/infra/rate-limit";
import { idPattern, newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { isListingCode } from "./codes";
import { actingModerator, ownedBy, refuseOwnListing } from "./internal/moderator";

export const reportReason = z.string().trim().min(1).max(1000);
export const reporterEmail = z
  .email()
  .max(254)
  .transform((email) => email.toLowerCase());

const reportInput = z.object({
  code: z.string(),
  reason: reportReason,
  reporterEmail: reporterEmail.optional(),
  /** The reporting client's address (the portal's form): its reports are counted under `reportRule`. */
  address: z.string().min(1).max(100).optional(),
});

/** Reports one client address may send: 10 an hour, enough for a visitor, too few to flood the moderators' queue. */
export const reportRule = { name: "listing_report_address", limit: 10, windowSeconds: 3600 } as const satisfies RateRule;

export interface ListingReport {
  id: string;
  listingCode: string;
  /** The title the listing shows (its published version's). */
  listingTitle: string;
  reason: string;
  reporterEmail: string | null;
  status: "open" | "closed";
  createdAt: Date;
  closedAt: Date | null;
}

const ownColumns = {
  id: listingReports.id,
  reason: listingReports.reason,
  reporterEmail: listingReports.reporterEmail,
  status: listingReports.status,
  createdAt: listingReports.createdAt,
  closedAt: listingReports.closedAt,
};

const listingTitle = sql<string>`${listings.fields}->>'title'`;

const reportColumns = { ...ownColumns, listingCode: listings.code, listingTitle };

/**
 * Anyone reports a public listing (the portal's "report this listing"); the open report blocks its
 * deletion until moderation closes it. A listing the public cannot see answers like a missing one.
 * Given the client's address, the report counts against its hourly limit (operators' reports do not).
 */
export async function reportListing({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof reportInput> }): Promise<ListingReport> {
  const data = parseOrThrow(reportInput, input);
  if (!isListingCode(data.code)) throw notFound();
  if (data.address) {
    const decision = await rateLimiter().hit(data.address, reportRule);
    if (decision.limited) throw new AppError("too_many_requests", { limit: decision.limit, retry_after: decision.resetSeconds });
  }
  return withTransaction(ctx, async (tx) => {
    // The share lock waits for a write in progress (a deletion, say) and re-reads the row after it,
    // so a report never lands on a listing that has just left the catalog.
    const [listing] = await tx.db
      .select({ id: listings.id, title: listingTitle })
      .from(listings)
      .where(and(eq(listings.code, data.code), eq(listings.status, "active"), isNull(listings.deletedAt)))
      .for("share");
    if (!listing) throw notFound();
    const [report] = await tx.db
      .insert(listingReports)
      .values({
        id: newId("report"),
        listingId: listing.id,
        reason: data.reason,
        reporterEmail: data.reporterEmail ?? null,
        createdAt: ctx.now,
      })
      .returning(ownColumns);
    return { ...report, listingCode: data.code, listingTitle: listing.title };
  });
}

/**
 * A moderator closes a report once dealt with; closing a closed report changes nothing. Closing one
 * on their own or their agency's listing is refused like a decision on it (`own_listing`): it would
 * let them delete a listing others reported.
 */
export async function closeReport({ ctx, input }: { ctx: ServiceContext<StaffActor>; input: { id: string } }): Promise<ListingReport> {
  if (!idPattern("report").test(input.id)) throw notFound();
  return withTransaction(ctx, async (tx) => {
    const moderator = await actingModerator(tx);
    const [owner] = await tx.db
      .select({ accountId: listings.accountId, agencyId: listings.agencyId })
      .from(listingReports)
      .innerJoin(listings, eq(listings.id, listingReports.listingId))
      .where(eq(listingReports.id, input.id));
    if (!owner) throw notFound();
    refuseOwnListing(moderator, owner);
    await tx.db
      .update(listingReports)
      .set({ status: "closed", closedAt: ctx.now })
      .where(and(eq(listingReports.id, input.id), eq(listingReports.status, "open")));
    const [report] = await tx.db
      .select(reportColumns)
      .from(listingReports)
      .innerJoin(listings, eq(listings.id, listingReports.listingId))
      .where(eq(listingReports.id, input.id));
    if (!report) throw notFound();
    return report;
  });
}

/** An open report as the moderation desk lists it: whether the moderator may close it (not on their own listing). */
export type OpenReport = ListingReport & { own: boolean };

/** Open reports, oldest first (the moderation queue), at most 500, of one listing when `code` is given. */
export async function listOpenReports({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { code?: string };
}): Promise<OpenReport[]> {
  const moderator = await actingModerator(ctx);
  const rows = await ctx.db
    .select({ ...reportColumns, accountId: listings.accountId, agencyId: listings.agencyId })
    .from(listingReports)
    .innerJoin(listings, eq(listings.id, listingReports.listingId))
    .where(and(eq(listingReports.status, "open"), input.code === undefined ? undefined : eq(listings.code, input.code)))
    .orderBy(asc(listingReports.createdAt), asc(listingReports.id))
    .limit(500);
  return rows.map(({ accountId, agencyId, ...report }) => ({ ...report, own: ownedBy(moderator, { accountId, agencyId }) }));
}

/** How many reports are open, all of them (the desk's count, beyond the 500 listed). */
export async function countOpenReports({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<number> {
  await actingModerator(ctx);
  const [row] = await ctx.db.select({ n: count() }).from(listingReports).where(eq(listingReports.status, "open"));
  return row.n;
}
