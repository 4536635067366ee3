import { isDeepStrictEqual } from "node:util";
import { withTransaction, type AccountActor, type ServiceContext } from "@/lib/base/context";
import { eventTypes, listingEventData, recordEvent } from "@/lib/domain/events";
import type { ListingWarning } from "@/lib/domain/listings/validation";
import { AppError } from "@/lib/base/errors";
import { lockListing } from "./locking";
import { mergePatch } from "./internal/merge-patch";
import { checkIfMatch } from "./internal/preconditions";
import { detailOf, listingEtag, type ListedRow } from "./read-shape";
import type { ListingDetail } from "./schemas";
import { refuseStaleWrite } from "./source-time";
import { keepSourceTime, rewritten, updateListing } from "./store";
import { validateOrThrow } from "./internal/validate";

/** States whose listing has been public: an edit waits for moderation while the live version stays. */
const published = new Set(["active", "paused", "unconfirmed"]);
const frozen = new Set(["sold", "hidden"]);

export interface EditListingInput {
  code: string;
  patch: unknown;
  ifMatch: string | null;
  source: "api" | "portal";
  /** A draft sent to moderation: judged as for publication, then `pending`. Other states ignore it. */
  submit?: boolean;
  /** `source_updated_at` of a write by ref: older than the stored one, nothing is written (`stale_source`). */
  sourceUpdatedAt?: Date | null;
}

export interface EditOutcome {
  listed: ListedRow;
  /** The listing as its owner reads it after the edit (while an edit waits, the live version with `moderation.pending_fields`). */
  detail: ListingDetail;
  warnings: ListingWarning[];
  /** The edit waits for moderation and the live version stays; false when it was applied at once or changed nothing. */
  heldForModeration: boolean;
  unchanged: boolean;
}

const outcomeOf = (listed: ListedRow, rest: Omit<EditOutcome, "listed" | "detail">): EditOutcome => ({
  listed,
  detail: detailOf(listed),
  ...rest,
});

/**
 * Edits a listing as a JSON Merge Patch. Unpublished listings change at once (a rejected one goes
 * back to moderation); published ones keep their live version and hold the edit for moderation.
 * An unconfirmed listing edited through the API is confirmed again (`listing.published`). A draft
 * stays one, judged by the draft rules, until submitted.
 */
export async function editListing({ ctx, input }: { ctx: ServiceContext<AccountActor>; input: EditListingInput }): Promise<EditOutcome> {
  return withTransaction(ctx, async (tx) => {
    const listed = await lockListing(tx, input.code);
    const { row } = listed;
    checkIfMatch(row, input.ifMatch);
    const sourceUpdatedAt = input.sourceUpdatedAt ?? null;
    refuseStaleWrite(row, sourceUpdatedAt);
    if (frozen.has(row.status)) {
      throw new AppError("listing_action_refused", { reason: "not_editable", status: row.status });
    }
    const base = row.pendingFields ?? row.fields;
    const submit = row.status === "draft" && input.submit === true;
    const draft = row.status === "draft" && !submit;
    const document = mergePatch(base, input.patch);
    const valid = await validateOrThrow(tx, { document, mode: "patch", previous: row.fields, draft });
    const isPublished = published.has(row.status);
    const confirm = row.status === "unconfirmed" && input.source === "api";
    const unchanged = isDeepStrictEqual(valid.fields, base);
    const newerSource = sourceUpdatedAt !== null && sourceUpdatedAt.getTime() !== row.sourceUpdatedAt?.getTime();
    if (unchanged && !confirm && !submit) {
      // The same body from a later version of the source: its time is kept (so an older write
      // meanwhile stays refused) without a new version of the listing.
      const kept = newerSource ? rewritten(listed, await keepSourceTime(tx, row, sourceUpdatedAt)) : listed;
      return outcomeOf(kept, { warnings: valid.warnings, heldForModeration: false, unchanged: true });
    }

    const changes = isPublished
      ? { pendingFields: isDeepStrictEqual(valid.fields, row.fields) ? null : valid.fields }
      : {
          fields: valid.fields,
          ...(row.status === "rejected" ? { status: "pending" as const, rejectionReason: null, rejectionCodes: null } : {}),
          ...(submit ? { status: "pending" as const } : {}),
        };
    const updated = await updateListing(
      tx,
      row,
      {
        ...changes,
        ...(confirm ? { status: "active" as const, confirmedAt: ctx.now } : {}),
        ...(newerSource ? { sourceUpdatedAt } : {}),
      },
      valid.rates,
    );
    if (confirm)
      await recordEvent(tx.db, { accountId: row.accountId, type: eventTypes.published, data: listingEventData(updated), now: ctx.now });
    if (input.source === "portal") {
      await recordEvent(tx.db, {
        accountId: row.accountId,
        type: eventTypes.editedInPortal,
        data: listingEventData(updated, { etag: listingEtag(updated) }),
        now: ctx.now,
      });
    }
    return outcomeOf(rewritten(listed, updated), {
      warnings: valid.warnings,
      heldForModeration: isPublished && !unchanged,
      unchanged: false,
    });
  });
}
