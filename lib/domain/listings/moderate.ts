import { z } from "zod";
import { withTransaction, type AccountActor, type ServiceContext, type StaffActor, type TransactionContext } from "@/lib/base/context";
import { loadRates } from "@/lib/domain/currency";
import { AppError } from "@/lib/base/errors";
import { eventTypes } from "@/lib/domain/events";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { rejectionCodes as rejectionCodeList } from "@/lib/domain/vocabulary/rejection-codes";
import { lockAnyListing, lockListing } from "./locking";
import { actingModerator, refuseOwnListing } from "./internal/moderator";
import { refineStorable } from "./validation/text";
import { detailOf, type ListedRow } from "./read-shape";
import type { ListingDetail } from "./schemas";
import { rewritten, updateListing } from "./store";
import { transition } from "./internal/transition";

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
 * A moderator's decision on any account's listing. Approve publishes a pending listing
 * (`listing.published`) or applies the edit waiting on a published one; reject works from any state
 * and discards a waiting edit (`listing.rejected`); hide withdraws from any state (`listing.withdrawn`,
 * by moderation). A moderator's decision on their own or their agency's listing is refused
 * (`listing_action_refused`, reason `own_listing`): someone else must judge it.
 */
export async function moderateListing({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { code: string; decision: unknown };
}): Promise<ListingDetail> {
  const decision = parseOrThrow(moderationDecision, input.decision);
  const decided = await withTransaction(ctx, async (tx) => {
    const moderator = await actingModerator(tx);
    const listed = await lockAnyListing(tx, input.code);
    refuseOwnListing(moderator, listed.row);
    return decide(tx, listed, decision);
  });
  return detailOf(decided);
}

/**
 * The sandbox simulator: the caller decides as a moderator would, on its own listings only (others
 * answer like missing ones).
 */
export async function simulateModeration({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { code: string; decision: unknown };
}): Promise<ListingDetail> {
  const decision = parseOrThrow(moderationDecision, input.decision);
  return detailOf(await withTransaction(ctx, async (tx) => decide(tx, await lockListing(tx, input.code), decision)));
}

async function decide(ctx: TransactionContext, listed: ListedRow, decision: z.output<typeof moderationDecision>): Promise<ListedRow> {
  const { row } = listed;
  switch (decision.decision) {
    case "approve":
      if (row.status === "pending") {
        return transition(
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
          await updateListing(ctx, row, { fields: row.pendingFields, pendingFields: null }, await loadRates(ctx.db, ctx.now)),
        );
      }
      throw new AppError("listing_action_refused", { reason: "nothing_to_approve", status: row.status });
    case "reject":
      return transition(
        ctx,
        listed,
        { status: "rejected", pendingFields: null, rejectionReason: decision.reason, rejectionCodes: decision.rejection_codes },
        eventTypes.rejected,
        { reason: decision.reason, rejection_codes: decision.rejection_codes },
      );
    case "hide":
      return transition(ctx, listed, { status: "hidden", pendingFields: null }, eventTypes.withdrawn, { by: "moderation" });
  }
}
