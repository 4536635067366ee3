import type { ListingStatus } from "@/db/schema";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { eventTypes, type EventType } from "@/lib/domain/events";
import { lockListing } from "./locking";
import { detailOf } from "./read-shape";
import type { ListingDetail } from "./schemas";
import { transition } from "./internal/transition";

/**
 * Owner actions of the state machine. Repeating an action on a
 * listing already in its target state changes nothing and answers like the first time; a state the
 * action does not start from is refused: `resume` with 404 (as documented), the others with 409.
 * `resume` of a listing the caller can see says it is not paused (reason `not_paused`): the caller
 * reads that listing anyway, and someone else's listing has failed the lookup before, like a missing one.
 */
const ownerActions = {
  pause: { from: ["active"], to: "paused", event: eventTypes.paused, refusal: "cannot_pause" },
  resume: { from: ["paused"], to: "active", event: eventTypes.reactivated, refusal: "not_paused" },
  sold: { from: ["active", "paused"], to: "sold", event: eventTypes.sold, refusal: "cannot_mark_sold" },
} as const satisfies Record<
  string,
  { from: readonly ListingStatus[]; to: ListingStatus; event: EventType; refusal: "cannot_pause" | "cannot_mark_sold" | "not_paused" }
>;

export type OwnerAction = keyof typeof ownerActions;

export async function changeListingState({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { code: string; action: OwnerAction };
}): Promise<ListingDetail> {
  const action = ownerActions[input.action];
  const changed = await withTransaction(ctx, async (tx) => {
    const listed = await lockListing(tx, input.code);
    const { status } = listed.row;
    if (status === action.to && action.refusal !== "not_paused") return listed;
    if (!(action.from as readonly string[]).includes(status)) {
      if (action.refusal === "not_paused") throw new AppError("not_found", { reason: "not_paused", status });
      throw new AppError("listing_action_refused", { reason: action.refusal, status });
    }
    return transition(tx, listed, { status: action.to }, action.event);
  });
  return detailOf(changed);
}
