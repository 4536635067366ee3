import { and, eq } from "drizzle-orm";
import { apiKeys, apiLog } from "@/db/schema";
import { storableText } from "@/lib/base/redact";
import { cursorTimestamp } from "@/lib/base/cursor";

/** One request in the account's API log, as both the list and the detail show it. */
export interface ApiLogRow {
  /** Opaque to pages: the row's number as a string. */
  id: string;
  requestId: string;
  keyId: string | null;
  /** Null when the row names no key of this account. */
  keyName: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  createdAt: Date;
}

export const rowColumns = {
  id: apiLog.id,
  requestId: apiLog.requestId,
  keyId: apiLog.keyId,
  keyName: apiKeys.name,
  method: apiLog.method,
  path: apiLog.path,
  status: apiLog.status,
  durationMs: apiLog.durationMs,
  createdAt: apiLog.createdAt,
  cursorAt: cursorTimestamp(apiLog.createdAt),
};

/** A row's key, when it is one of the row's account (the join of every read). */
export const keyOfRow = and(eq(apiKeys.id, apiLog.keyId), eq(apiKeys.accountId, apiLog.accountId))!;

/** Rows were redacted when written (lib/base/redact.ts); redacting again on the way out covers rows older than today's rules. */
export function shapeRow(row: Omit<ApiLogRow, "id"> & { id: number }): ApiLogRow {
  return {
    id: String(row.id),
    requestId: row.requestId,
    keyId: row.keyId,
    keyName: row.keyName,
    method: row.method,
    path: storableText(row.path),
    status: row.status,
    durationMs: row.durationMs,
    createdAt: row.createdAt,
  };
}
