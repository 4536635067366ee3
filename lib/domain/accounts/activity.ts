import { activityLog } from "@/db/schema";
import type { Handle } from "@/db";
import { actorLabel, type Actor } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";

/** Appends to the account's activity log; callers pass their transaction so both commit together. */
export async function recordActivity(
  db: Handle,
  entry: { accountId: string; actor: Actor; action: string; subjectId?: string; details?: string },
): Promise<void> {
  await db.insert(activityLog).values({
    id: newId("activity"),
    accountId: entry.accountId,
    actor: actorLabel(entry.actor),
    action: entry.action,
    subjectId: entry.subjectId,
    details: entry.details,
  });
}
