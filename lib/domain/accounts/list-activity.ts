import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { activityLog } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { cursorTimestamp, decodeKeyset, olderThan, toKeysetPage, type KeysetPage } from "@/lib/base/cursor";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { activityActor, type ActivityActor } from "./activity-actor";

export const listActivityInput = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

export interface ActivityEntry {
  id: string;
  /** A code (`api_key.created`, `password.changed`, …): pages translate it. */
  action: string;
  /** As stored: `account:<id>`, `api:<keyId>`, `moderator:<id>`, `operator`, `system`, `public`. */
  actor: string;
  /** The stored actor relative to the viewing account (`activityActor`). */
  by: ActivityActor;
  subjectId: string | null;
  details: string | null;
  createdAt: Date;
}

/** The signed-in account's activity log, newest first, a page at a time (`nextCursor` continues). */
export async function listActivity({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof listActivityInput>;
}): Promise<KeysetPage<ActivityEntry>> {
  const data = parseOrThrow(listActivityInput, input);
  const after = decodeKeyset(data.cursor, z.string().min(1).max(100));
  const accountId = ctx.actor.accountId;
  const rows = await ctx.db
    .select({
      id: activityLog.id,
      action: activityLog.action,
      actor: activityLog.actor,
      subjectId: activityLog.subjectId,
      details: activityLog.details,
      createdAt: activityLog.createdAt,
      cursorAt: cursorTimestamp(activityLog.createdAt),
    })
    .from(activityLog)
    .where(and(eq(activityLog.accountId, accountId), after && olderThan(activityLog.createdAt, activityLog.id, after)))
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(data.limit + 1);
  return toKeysetPage(
    rows,
    data.limit,
    (row) => row.id,
    (row): ActivityEntry => ({
      id: row.id,
      action: row.action,
      actor: row.actor,
      by: activityActor(row.actor, accountId),
      subjectId: row.subjectId,
      details: row.details,
      createdAt: row.createdAt,
    }),
  );
}
