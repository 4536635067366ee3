import { inArray } from "drizzle-orm";
import { listings, listingStatuses, type ListingStatus } from "@/db/schema";
import type { CreatedAccount } from "@/lib/domain/accounts/create-account";
import { asAccount, type AccountActor, type ServiceContext, type StaffActor } from "@/lib/base/context";
import { createListing } from "@/lib/domain/listings/create";
import { editListing } from "@/lib/domain/listings/edit";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { confirmationDays, unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { reportListing } from "@/lib/domain/listings/reports";
import { changeListingState } from "@/lib/domain/listings/change-state";
import type { SeededAccounts } from "./accounts";
import { sandboxListings, type SeedListing } from "./listing-documents";
import { seedListingPhotos, type SeedPhotoProcessing } from "./photos";

export interface SeededListings {
  total: number;
  /** Photos given to the listings (drawn, uploaded and processed), all of them. */
  photos: number;
  by_status: Record<ListingStatus, number>;
  codes: { seller: string; code: string; status: ListingStatus }[];
}

const sellerOf = (ctx: ServiceContext<StaffActor>, account: CreatedAccount): ServiceContext<AccountActor> =>
  asAccount(ctx, { accountId: account.id, agency: account.agency ? { id: account.agency.id, role: account.agency.role } : null });

/**
 * Creates the sandbox listings through the same services the API, the portal and moderation use,
 * so their rows and events are what real use produces. `unconfirmed` is the one shortcut: the
 * listing's last confirmation is moved back past the limit, then the `listings.unconfirm` job's rule runs.
 */
export async function seedListings({
  ctx,
  accounts,
  photoProcessing,
}: {
  ctx: ServiceContext<StaffActor>;
  accounts: SeededAccounts;
  photoProcessing: SeedPhotoProcessing;
}): Promise<SeededListings> {
  const seeded: SeededListings["codes"] = [];
  let photos = 0;
  for (const plan of sandboxListings(ctx.now)) {
    const { code, photos: added } = await bringToState(ctx, sellerOf(ctx, accounts[plan.seller]), plan, photoProcessing);
    seeded.push({ seller: accounts[plan.seller].email, code, status: plan.status });
    photos += added;
  }
  await unconfirmSeeded(
    ctx,
    seeded.filter((listing) => listing.status === "unconfirmed").map((listing) => listing.code),
  );
  return { ...(await summarize(ctx, seeded)), photos };
}

/** Creates the listing, gives it its photos as an integrator would before moderation sees it, then walks it to its state. */
async function bringToState(
  ctx: ServiceContext<StaffActor>,
  seller: ServiceContext<AccountActor>,
  plan: SeedListing,
  processing: SeedPhotoProcessing,
): Promise<{ code: string; photos: number }> {
  const { listed } = await createListing({ ctx: seller, input: { body: plan.document, source: "api", draft: plan.status === "draft" } });
  const { code } = listed.row;
  const photos = await seedListingPhotos({ ctx, seller, code, document: plan.document, processing });
  await walkToState(ctx, seller, plan, code);
  return { code, photos };
}

async function walkToState(
  ctx: ServiceContext<StaffActor>,
  seller: ServiceContext<AccountActor>,
  plan: SeedListing,
  code: string,
): Promise<void> {
  if (plan.status === "draft" || plan.status === "pending") return;
  if (plan.status === "rejected") {
    await moderateListing({ ctx, input: { code, decision: { decision: "reject", ...plan.rejection } } });
    return;
  }
  await moderateListing({ ctx, input: { code, decision: { decision: "approve" } } });
  if (plan.status === "paused" || plan.status === "sold") {
    await changeListingState({ ctx: seller, input: { code, action: plan.status === "paused" ? "pause" : "sold" } });
  }
  if (plan.status === "hidden") await moderateListing({ ctx, input: { code, decision: { decision: "hide" } } });
  if (plan.pendingEdit) await editListing({ ctx: seller, input: { code, patch: plan.pendingEdit, ifMatch: null, source: "api" } });
  if (plan.report) await reportListing({ ctx, input: { code, ...plan.report } });
}

async function unconfirmSeeded(ctx: ServiceContext<StaffActor>, codes: string[]): Promise<void> {
  if (!codes.length) return;
  const lastConfirmed = new Date(ctx.now.getTime() - (confirmationDays + 1) * 86_400_000);
  await ctx.db.update(listings).set({ confirmedAt: lastConfirmed }).where(inArray(listings.code, codes));
  await unconfirmStaleListings({ ctx });
}

/** Counts what the database holds now, so the summary shows the states reached, not the ones planned. */
async function summarize(ctx: ServiceContext, seeded: SeededListings["codes"]): Promise<Omit<SeededListings, "photos">> {
  const rows = await ctx.db
    .select({ code: listings.code, status: listings.status })
    .from(listings)
    .where(
      inArray(
        listings.code,
        seeded.map((listing) => listing.code),
      ),
    );
  const statusOf = new Map(rows.map((row) => [row.code, row.status]));
  const codes = seeded.map((listing) => ({ ...listing, status: statusOf.get(listing.code)! }));
  const byStatus = Object.fromEntries(
    listingStatuses.map((status) => [status, codes.filter((listing) => listing.status === status).length]),
  );
  return { total: codes.length, by_status: byStatus as Record<ListingStatus, number>, codes };
}
