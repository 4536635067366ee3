import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { listings, photos } from "@/db/schema";
import { config } from "@/lib/base/config";
import { withTransaction, type AccountActor, type ServiceContext, type TransactionContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { eventTypes, listingEventData, recordEvent, type EventBody } from "@/lib/domain/events";
import { rejectionCodes } from "@/lib/domain/vocabulary/rejection-codes";
import { subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { listingCodePattern } from "./codes";
import { findListed } from "./internal/queries";
import { listingEtag, type ListingRow } from "./read-shape";
import { visibleTo } from "./scope";

/**
 * What can be triggered: the listing event types a webhook can subscribe to. `webhook.test` is not an
 * outbox event (it goes to one webhook, never retried, never in `GET /events`): the webhook's Test
 * button sends it. `import.completed` is no listing's: a sandbox import of a few lines writes it.
 */
export type TriggerableEventType = Exclude<(typeof subscribableEventTypes)[number], typeof eventTypes.importCompleted>;
export const triggerableEventTypes = subscribableEventTypes.filter(
  (type): type is TriggerableEventType => type !== eventTypes.importCompleted,
) as [TriggerableEventType, ...TriggerableEventType[]];

export const sandboxEventInput = z.object({
  type: z.enum(triggerableEventTypes).meta({ description: "The event type to fire: any type a webhook can subscribe to." }),
  code: z.string().regex(listingCodePattern).meta({ description: "Public code of one of the caller's listings: 8 characters." }),
});
export type SandboxEventInput = z.input<typeof sandboxEventInput>;

/** `reason` of a triggered `listing.rejected` on a listing that moderation never rejected. */
export const sandboxRejectionReason = "Sandbox test event: no moderator rejected this listing.";

/**
 * The members a real event of each type adds to `listingEventData`, taken from the listing as it is
 * now, the way each real writer takes them: moderation's reason and codes, the version
 * `listing.edited_in_portal` names, the photos processing left out. Where the listing has none (a
 * rejection of a listing never rejected, a failure of a listing whose photos all passed), a stand-in
 * of the same shape; `listing.withdrawn` is moderation's (an owner's withdrawal is a deletion, and a
 * deleted listing answers like a missing one).
 */
const typeMembers: Record<TriggerableEventType, (tx: TransactionContext, row: ListingRow) => Promise<Record<string, unknown>>> = {
  [eventTypes.published]: async () => ({}),
  [eventTypes.paused]: async () => ({}),
  [eventTypes.reactivated]: async () => ({}),
  [eventTypes.sold]: async () => ({}),
  [eventTypes.rejected]: async (_, row) =>
    row.rejectionReason !== null && row.rejectionCodes?.length
      ? { reason: row.rejectionReason, rejection_codes: row.rejectionCodes }
      : { reason: sandboxRejectionReason, rejection_codes: [rejectionCodes.codes[0]] },
  [eventTypes.withdrawn]: async () => ({ by: "moderation" }),
  [eventTypes.editedInPortal]: async (_, row) => ({ etag: listingEtag(row) }),
  [eventTypes.mediaFailed]: mediaFailure,
};

/**
 * Sandbox only: fires an event of one of the caller's listings as the product would, in one
 * transaction (the outbox row and its webhook deliveries, `recordEvent`), with the `data` of a real
 * event of that type for the listing's current state; `status` is the state it is in, unchanged.
 * The listing is not written, so it is read without its write lock: a trigger never waits for nor
 * holds up a write. The event belongs to the listing's account, as a real one would, and nothing
 * in it tells it from a real one (the answer's id does). Another account's listing answers like a
 * missing one; in production the service does not exist (404).
 */
export async function triggerSandboxEvent({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: unknown }): Promise<EventBody> {
  if (config().APP_ENV !== "sandbox") throw notFound();
  const { type, code } = parseOrThrow(sandboxEventInput, input);
  return withTransaction(ctx, async (tx) => {
    const { row } = await findListed(tx.db, and(eq(listings.code, code), visibleTo(tx.actor))!);
    const data = listingEventData(row, await typeMembers[type](tx, row));
    const event = await recordEvent(tx.db, { accountId: row.accountId, type, data, now: tx.now });
    // The outbox's gate: events reach only an account with a key that is not revoked.
    if (!event) throw new AppError("listing_action_refused", { reason: "events_need_key" });
    return event;
  });
}

/**
 * `media.failed` as photo processing writes it for the listing's failed photos: those of the first
 * failed photo's reason, with their addresses when they could not be downloaded. A listing without a
 * failed photo gets one photo `unprocessable`.
 */
async function mediaFailure(tx: TransactionContext, row: ListingRow): Promise<Record<string, unknown>> {
  const failed = await tx.db
    .select({ reason: photos.failureReason, url: photos.sourceUrl })
    .from(photos)
    .where(and(eq(photos.listingId, row.id), eq(photos.state, "failed")))
    .orderBy(asc(photos.position));
  if (failed.length === 0) return { count: 1, reason: "unprocessable" };
  const reason = failed[0].reason ?? "unprocessable";
  const same = failed.filter((photo) => (photo.reason ?? "unprocessable") === reason);
  const urls = same.flatMap((photo) => (photo.url !== null ? [photo.url] : []));
  return { count: same.length, reason, ...(reason === "download_failed" ? { urls } : {}) };
}
