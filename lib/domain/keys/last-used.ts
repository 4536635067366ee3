import { sql } from "drizzle-orm";
import { database } from "@/db";
import { logger } from "@/lib/base/logger";

/**
 * `last_used_at` is kept without a write per request: uses are collected in memory and written
 * in one statement at most once a minute (and on demand by tests and shutdown).
 */
const pending = new Map<string, Date>();
let timer: NodeJS.Timeout | undefined;
const flushEveryMs = 60_000;

export function markKeyUsed(keyId: string, at: Date): void {
  pending.set(keyId, at);
  if (!timer) {
    timer = setTimeout(() => void flushKeyUsage(), flushEveryMs);
    timer.unref();
  }
}

export async function flushKeyUsage(): Promise<void> {
  timer = undefined;
  if (!pending.size) return;
  const batch = [...pending];
  pending.clear();
  try {
    const { connection: db } = await database();
    const values = sql.join(
      batch.map(([id, at]) => sql`(${id}, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await db.execute(sql`
      update api_keys set last_used_at = v.at
      from (values ${values}) as v(id, at)
      where api_keys.id = v.id and (api_keys.last_used_at is null or api_keys.last_used_at < v.at)`);
  } catch (error) {
    logger.error("key usage flush failed", { error });
  }
}
