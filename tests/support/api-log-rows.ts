import { and, eq, getTableColumns, type SQL } from "drizzle-orm";
import { database, type Database } from "@/db";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { apiLog, apiLogBodies } from "@/db/schema";

/** API log rows as stored, each with its bodies (`api_log_bodies`, null when it has none), where `where` holds. */
export const loggedRows = (db: Database["connection"], where: SQL | undefined) =>
  db
    .select({ ...getTableColumns(apiLog), requestBody: apiLogBodies.requestBody, responseBody: apiLogBodies.responseBody })
    .from(apiLog)
    .leftJoin(apiLogBodies, and(eq(apiLogBodies.id, apiLog.id), eq(apiLogBodies.createdAt, apiLog.createdAt)))
    .where(where);

/** The stored row of one request, after the pending batch is written. */
export async function loggedRow(requestId: string) {
  await flushApiLog();
  const [row] = await loggedRows((await database()).connection, eq(apiLog.requestId, requestId));
  return row;
}
