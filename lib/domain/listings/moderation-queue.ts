import { and, asc, count, eq, gt, isNotNull, isNull, ne, not, or, type SQL } from "drizzle-orm";
import { listings } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { decodeSequenceCursor, encodeSequenceCursor, isCursorRefusal } from "@/lib/base/cursor";
import { actingModerator, ownedBy, ownedCondition } from "./internal/moderator";
import { listedOf, listedQuery } from "./internal/queries";

/** One listing waiting for moderation: a new one (`pending`) or an edit of a published one. */
export interface QueueItem {
  code: string;
  kind: "new" | "edit";
  /** The title the moderator would publish: the edit's when there is one. */
  title: string;
  city: string;
  type: string;
  transaction: string;
  lister: string;
  /** When it last changed: the queue's order, oldest first. */
  since: Date;
  /** The moderator's own or their agency's: someone else decides. */
  own: boolean;
}

export interface ModerationQueue {
  items: QueueItem[];
  /** The cursor of the next page, when there is one. */
  next?: string;
  counts: { pending: number; edits: number };
}

// A draft is never in the queue: the owner has not submitted it.
const waitingEdit = and(isNotNull(listings.pendingFields), ne(listings.status, "draft"))!;
const pendingNew = and(isNull(listings.deletedAt), eq(listings.status, "pending"))!;
const pendingEdit = and(isNull(listings.deletedAt), waitingEdit)!;
// The predicate of listings_moderation_queue_idx, written as the index is, so the planner uses it.
const inQueue = and(isNull(listings.deletedAt), or(eq(listings.status, "pending"), waitingEdit))!;

/**
 * The moderation queue, oldest change first (who waits longest comes first), with cursor paging
 * forward and the counts of new listings and edits waiting. A cursor that does not parse (an old
 * link) gives the first page.
 */
export async function listModerationQueue({
  ctx,
  input,
}: {
  ctx: ServiceContext<StaffActor>;
  input: { cursor?: string; perPage?: number };
}): Promise<ModerationQueue> {
  const moderator = await actingModerator(ctx);
  const perPage = input.perPage ?? 20;
  const after = startAfter(input.cursor);
  const rows = await listedQuery(ctx.db)
    .where(after === undefined ? inQueue : and(inQueue, gt(listings.modSeq, after)))
    .orderBy(asc(listings.modSeq))
    .limit(perPage + 1);
  const [[pending], [edits]] = await Promise.all([
    ctx.db.select({ n: count() }).from(listings).where(pendingNew),
    ctx.db.select({ n: count() }).from(listings).where(pendingEdit),
  ]);
  const items = rows.slice(0, perPage).map((found) => {
    const { row, lister } = listedOf(found);
    const shown = row.pendingFields ?? row.fields;
    return {
      code: row.code,
      kind: row.status === "pending" ? "new" : "edit",
      title: String(shown.title),
      city: String(shown.city),
      type: String(shown.type),
      transaction: String(shown.transaction),
      lister,
      since: row.updatedAt,
      own: ownedBy(moderator, row),
    } satisfies QueueItem;
  });
  const last = rows[perPage - 1];
  return {
    items,
    next: rows.length > perPage ? encodeSequenceCursor({ after: last.row.modSeq }) : undefined,
    counts: { pending: pending.n, edits: edits.n },
  };
}

/** The oldest listing in the queue this moderator may decide on, if any: where the desk goes after a decision. */
export async function nextInQueue({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<string | null> {
  const moderator = await actingModerator(ctx);
  const scope: SQL = moderator ? and(inQueue, not(ownedCondition(moderator)))! : inQueue;
  const [found] = await ctx.db.select({ code: listings.code }).from(listings).where(scope).orderBy(asc(listings.modSeq)).limit(1);
  return found?.code ?? null;
}

/** Where a page starts: the queue pages forward only (`after` cursors); any other cursor is the first page. */
function startAfter(cursor: string | undefined): number | undefined {
  try {
    const decoded = decodeSequenceCursor(cursor);
    return decoded && "after" in decoded ? decoded.after : undefined;
  } catch (error) {
    if (isCursorRefusal(error)) return undefined;
    throw error;
  }
}
