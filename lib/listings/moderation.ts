import { and, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { listings } from "@/db/schema";
import type { ServiceContext } from "@/lib/context";
import { loadRates } from "@/lib/currency";
import { AppError } from "@/lib/errors";
import { eventTypes } from "@/lib/events";
import { parseOrThrow } from "@/lib/validation/zod";
import { rejectionCodes as rejectionCodeList } from "@/lib/vocabulary/rejection-codes";
import { lockListing } from "./locking";
import { refineStorable } from "./validation/text";
import type { ListedRow } from "./queries";
import type { ListingOwner } from "./scope";
import { rewritten, updateListing } from "./store";
import { transition } from "./transitions";

/** Reasons a moderator can give: the vocabulary's `rejection_code` list (labels in `GET /schema`). */
export const rejectionCodes = rejectionCodeList.codes;

export const moderationDecision = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve") }),
  z.object({
    decision: z.literal("reject"),
    reason: z.string().trim().min(1).max(500).superRefine(refineStorable),
    rejection_codes: z.array(z.enum(rejectionCodes)).min(1).max(rejectionCodes.length),
  }),
  z.object({ decision: z.literal("hide") }),
]);
export type ModerationDecision = z.input<typeof moderationDecision>;

/**
 * A moderator's decision. Approve publishes a pending listing (`listing.published`) or applies the
 * edit waiting on a published one; reject works from any state and discards a waiting edit
 * (`listing.rejected`); hide withdraws from any state (`listing.withdrawn`, by moderation).
 * `owner` scopes the decision for the sandbox simulator; moderators act on every listing.
 */
export async function moderateListing({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { code: string; owner: ListingOwner | null; decision: unknown };
}): Promise<ListedRow> {
  const decision = parseOrThrow(moderationDecision, input.decision);
  return ctx.database.db.transaction(async (tx) => {
    const listed = await lockListing(tx, input.code, input.owner);
    const { row } = listed;
    switch (decision.decision) {
      case "approve":
        if (row.status === "pending") {
          return transition(
            tx,
            ctx,
            listed,
            {
              status: "active",
              publishedAt: row.publishedAt ?? ctx.now,
              confirmedAt: ctx.now,
              rejectionReason: null,
              rejectionCodes: null,
            },
            eventTypes.published,
          );
        }
        if (row.pendingFields) {
          return rewritten(
            listed,
            await updateListing(tx, row, { fields: row.pendingFields, pendingFields: null }, ctx.now, await loadRates(tx)),
          );
        }
        throw new AppError("listing_action_refused", {
          reason: `Nothing to approve: the listing is ${row.status} without a waiting edit.`,
        });
      case "reject":
        return transition(
          tx,
          ctx,
          listed,
          { status: "rejected", pendingFields: null, rejectionReason: decision.reason, rejectionCodes: decision.rejection_codes },
          eventTypes.rejected,
          { reason: decision.reason, rejection_codes: decision.rejection_codes },
        );
      case "hide":
        return transition(tx, ctx, listed, { status: "hidden", pendingFields: null }, eventTypes.withdrawn, { by: "moderation" });
    }
  });
}

/** The owner confirms an unconfirmed listing is still available: active again, `listing.published`. */
export async function confirmListing({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { code: string; owner: ListingOwner };
}): Promise<ListedRow> {
  return ctx.database.db.transaction(async (tx) => {
    const listed = await lockListing(tx, input.code, input.owner);
    const { row } = listed;
    if (row.status === "active") return rewritten(listed, await updateListing(tx, row, { confirmedAt: ctx.now }, ctx.now));
    if (row.status !== "unconfirmed")
      throw new AppError("listing_action_refused", { reason: `A listing in state ${row.status} cannot be confirmed.` });
    return transition(tx, ctx, listed, { status: "active", confirmedAt: ctx.now }, eventTypes.published);
  });
}

export const confirmationDays = 30;

/** Active listings not confirmed for 30 days become `unconfirmed` (DESIGN §4); a job runs this daily. */
export async function unconfirmStaleListings({ ctx }: { ctx: ServiceContext }): Promise<{ unconfirmed: number }> {
  const cutoff = new Date(ctx.now.getTime() - confirmationDays * 86_400_000);
  const stale = await ctx.database.db
    .select({ code: listings.code })
    .from(listings)
    .where(and(eq(listings.status, "active"), lt(listings.confirmedAt, cutoff)))
    .limit(500);
  let unconfirmed = 0;
  for (const { code } of stale) {
    await ctx.database.db.transaction(async (tx) => {
      const row = (await lockListing(tx, code, null).catch(() => undefined))?.row;
      if (row?.status !== "active" || !row.confirmedAt || row.confirmedAt >= cutoff) return;
      await updateListing(tx, row, { status: "unconfirmed" }, ctx.now);
      unconfirmed++;
    });
  }
  return { unconfirmed };
}
