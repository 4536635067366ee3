import { sql } from "drizzle-orm";
import { database } from "@/db";
import { databaseUnavailable } from "@/db/errors";
import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { loggable, loggableQuery, storableText } from "@/lib/base/redact";

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
 * response, and a failed write is reported in the server log but never fails the request. A batch
 * the database refuses is written again row by row, so one bad row never costs the others theirs.
 */
const batchSize = 200;
const maxBacklog = 20_000;
const flushDelayMs = 1_000;

// On globalThis: route handlers queue entries and instrumentation's shutdown flushes them, from
// separate bundles in one process.
const holder = globalThis as typeof globalThis & {
  __listingsApiLog?: { buffer: ApiLogEntry[]; timer?: NodeJS.Timeout; flushing: Promise<void> };
};
const state = (holder.__listingsApiLog ??= { buffer: [], flushing: Promise.resolve() });
const buffer = state.buffer;

/** Queues one request's entry; never throws, since it runs after the request's work is done. */
export function logApiRequest(entry: ApiLogEntry): void {
  if (config().API_LOG === "off") return;
  try {
    buffer.push(storable(entry));
  } catch (error) {
    logger.error("api log entry dropped", { error, requestId: entry.requestId });
    return;
  }
  if (buffer.length >= batchSize) void flushApiLog();
  else scheduleFlush();
}

function scheduleFlush(): void {
  if (state.timer) return;
  state.timer = setTimeout(() => void flushApiLog(), flushDelayMs);
  state.timer.unref();
}

export function flushApiLog(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const batch = buffer.splice(0, buffer.length);
  if (!batch.length) return state.flushing;
  state.flushing = state.flushing.then(() => write(batch));
  return state.flushing;
}

/** The entry as the log keeps it: secrets redacted, every string storable in `text` and `jsonb`. */
function storable(entry: ApiLogEntry): ApiLogEntry {
  return {
    ...entry,
    method: storableText(entry.method),
    path: storableText(entry.path),
    query: entry.query === null ? null : loggableQuery(entry.query),
    ip: entry.ip === null ? null : storableText(entry.ip),
    requestBody: loggable(entry.requestBody),
    responseBody: loggable(entry.responseBody),
  };
}

async function write(batch: ApiLogEntry[]): Promise<void> {
  try {
    await insert(batch);
  } catch (error) {
    if (databaseUnavailable(error)) return keepForLater(batch, error);
    if (batch.length === 1) return writeWithoutBodies(batch[0], error);
    logger.warn("api log batch refused, writing its rows one by one", { error, entries: batch.length });
    for (const entry of batch) {
      await insert([entry]).catch((rowError: unknown) => writeWithoutBodies(entry, rowError));
    }
  }
}

/**
 * While the database cannot be reached the batch goes back to the front of the queue and is tried
 * again with the next flush; past `maxBacklog` entries the oldest are given up, with a count.
 */
function keepForLater(batch: ApiLogEntry[], error: unknown): void {
  buffer.unshift(...batch);
  const lost = buffer.length - maxBacklog;
  if (lost > 0) buffer.splice(0, lost);
  logger.error("api log write postponed: database unavailable", { error, entries: batch.length, lost: Math.max(lost, 0) });
  scheduleFlush();
}

/** Last resort for a row the database refuses: the request is still recorded, without its bodies. */
async function writeWithoutBodies(entry: ApiLogEntry, cause: unknown): Promise<void> {
  try {
    await insert([{ ...entry, requestBody: null, responseBody: null }]);
    logger.warn("api log row stored without its bodies", { error: cause, requestId: entry.requestId });
  } catch (error) {
    logger.error("api log write failed", { error, requestId: entry.requestId });
  }
}

/** One statement with one JSON parameter per batch: cheaper to build than a row of parameters per entry. */
async function insert(batch: ApiLogEntry[]): Promise<void> {
  const { connection: db } = await database();
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
}
