import { sql } from "drizzle-orm";
import { database } from "@/db";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { redactSecrets } from "./redact";

export interface ApiLogEntry {
  requestId: string;
  keyId: string | null;
  accountId: string | null;
  method: string;
  path: string;
  query: string | null;
  status: number;
  durationMs: number;
  ip: string | null;
  requestBody: unknown;
  responseBody: unknown;
  createdAt: Date;
}

/**
 * Entries are buffered and written in batches after the response is sent: logging never holds a
 * response, and a failed write is reported in the server log but never fails the request.
 */
const buffer: ApiLogEntry[] = [];
const batchSize = 200;
const flushDelayMs = 1_000;
let timer: NodeJS.Timeout | undefined;
let flushing: Promise<void> = Promise.resolve();

export function logApiRequest(entry: ApiLogEntry): void {
  if (config().API_LOG === "off") return;
  buffer.push({ ...entry, requestBody: redactSecrets(entry.requestBody), responseBody: redactSecrets(entry.responseBody) });
  if (buffer.length >= batchSize) void flushApiLog();
  else if (!timer) {
    timer = setTimeout(() => void flushApiLog(), flushDelayMs);
    timer.unref();
  }
}

export function flushApiLog(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const batch = buffer.splice(0, buffer.length);
  if (!batch.length) return flushing;
  flushing = flushing.then(() => write(batch));
  return flushing;
}

/** One statement with one JSON parameter per batch: cheaper to build than a row of parameters per entry. */
async function write(batch: ApiLogEntry[]): Promise<void> {
  try {
    const { db } = await database();
    const rows = JSON.stringify(
      batch.map((e) => ({
        request_id: e.requestId,
        key_id: e.keyId,
        account_id: e.accountId,
        method: e.method,
        path: e.path,
        query: e.query,
        status: e.status,
        duration_ms: e.durationMs,
        ip: e.ip,
        request_body: e.requestBody ?? null,
        response_body: e.responseBody ?? null,
        created_at: e.createdAt.toISOString(),
      })),
    );
    await db.execute(sql`
      insert into api_log (request_id, key_id, account_id, method, path, query, status, duration_ms, ip, request_body, response_body, created_at)
      select request_id, key_id, account_id, method, path, query, status, duration_ms, ip, request_body, response_body, created_at
      from jsonb_to_recordset(${rows}::jsonb) as r(
        request_id text, key_id text, account_id text, method text, path text, query text, status integer,
        duration_ms integer, ip text, request_body jsonb, response_body jsonb, created_at timestamptz)`);
  } catch (error) {
    logger.error("api log write failed", { error, entries: batch.length });
  }
}
