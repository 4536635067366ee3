import { z } from "zod";
import type { ServiceContext } from "@/lib/platform/context";
import { loadRates } from "@/lib/domain/currency";
import { AppError } from "@/lib/platform/errors";
import { eventTypes } from "@/lib/domain/events";
import { parseOrThrow } from "@/lib/platform/validation/zod";
import { rejectionCodes as rejectionCodeList } from "@/lib/domain/vocabulary/rejection-codes";
import { lockListing } from "./internal/locking";
import { refineStorable } from "./validation/text";
import type { ListedRow } from "./internal/queries";
import type { ListingOwner } from "./internal/scope";
import { rewritten, updateListing } from "./internal/store";
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
