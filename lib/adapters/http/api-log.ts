import { sql } from "drizzle-orm";
import { database } from "@/db";
import { databaseUnavailable } from "@/db/errors";
import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { loggable, loggableAsIs, loggableQuery, storableText } from "@/lib/base/redact";

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
  /** The response body as it was sent (`JSON.stringify`), kept as the log's when there is nothing in it to redact. */
  responseText?: string;
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

// In the process registry: route handlers queue entries and shutdown flushes them.
const state = processSlot<{ buffer: ApiLogEntry[]; timer?: NodeJS.Timeout; flushing: Promise<void> }>("apiLog").getOrMake(() => ({
  buffer: [],
  flushing: Promise.resolve(),
}));
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
    ...(entry.responseText !== undefined && loggableAsIs(entry.responseText)
      ? { responseBody: null, responseText: entry.responseText }
      : { responseBody: loggable(entry.responseBody), responseText: undefined }),
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
    await insert([{ ...entry, requestBody: null, responseBody: null, responseText: undefined }]);
    logger.warn("api log row stored without its bodies", { error: cause, requestId: entry.requestId });
  } catch (error) {
    logger.error("api log write failed", { error, requestId: entry.requestId });
  }
}

/** An entry's columns as a JSON object, its bodies apart (`bodyTexts`); `n` is its place in the batch, from 1. */
function rowJson(e: ApiLogEntry, index: number): string {
  return JSON.stringify({
    n: index + 1,
    request_id: e.requestId,
    key_id: e.keyId,
    account_id: e.accountId,
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    duration_ms: e.durationMs,
    ip: e.ip,
    created_at: e.createdAt.toISOString(),
  });
}

/**
 * Separates the bodies of a batch in one text: U+001E cannot occur in JSON text (`JSON.stringify`
 * writes control characters as escapes), and an empty part is a row without that body (a batch of
 * one entry without it is an empty text, which `string_to_table` splits into no part at all).
 */
const bodySeparator = "\u001e";

/** One body of each entry as JSON text, in batch order; a response body kept as sent goes in as its text, never parsed and written again. */
function bodyTexts(batch: ApiLogEntry[], body: (e: ApiLogEntry) => string | null): string {
  return batch.map((e) => body(e) ?? "").join(bodySeparator);
}
const requestText = (e: ApiLogEntry) => (e.requestBody == null ? null : JSON.stringify(e.requestBody));
const responseText = (e: ApiLogEntry) => e.responseText ?? (e.responseBody == null ? null : JSON.stringify(e.responseBody));

/**
 * One statement per batch: the columns as one JSON parameter (cheaper to build than a row of
 * parameters per entry) and each kind of body as one text, split by PostgreSQL and parsed once per
 * body. Inside the columns' JSON they cost PostgreSQL far more: `jsonb_to_recordset` writes out and
 * parses again every `jsonb` member it returns (a listing read's row: 94 µs of PostgreSQL's CPU
 * instead of 37, docs/benchmarks.md). The ids are
 * drawn first so that each row's bodies, kept apart for their shorter retention (`api_log_bodies`,
 * migration 0018), are written in the same statement, all or nothing.
 */
async function insert(batch: ApiLogEntry[]): Promise<void> {
  const { connection: db } = await database();
  const rows = `[${batch.map(rowJson).join(",")}]`;
  await db.execute(sql`
    with entry as materialized (
      select nextval('api_log_id_seq') as id, r.*
      from jsonb_to_recordset(${rows}::jsonb) as r(
        n integer, request_id text, key_id text, account_id text, method text, path text, query text, status integer,
        duration_ms integer, ip text, created_at timestamptz)
    ), body as (
      select entry.id, entry.created_at, nullif(request.text, '')::jsonb as request_body, nullif(response.text, '')::jsonb as response_body
      from entry
      left join string_to_table(${bodyTexts(batch, requestText)}::text, ${bodySeparator}) with ordinality as request(text, n) on request.n = entry.n
      left join string_to_table(${bodyTexts(batch, responseText)}::text, ${bodySeparator}) with ordinality as response(text, n) on response.n = entry.n
    ), bodies as (
      insert into api_log_bodies (id, created_at, request_body, response_body)
      select id, created_at, request_body, response_body from body where request_body is not null or response_body is not null
    )
    insert into api_log (id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at)
    select id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at from entry`);
}
