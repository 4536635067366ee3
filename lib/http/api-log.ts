import { apiLog } from "@/db/schema";
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

async function write(batch: ApiLogEntry[]): Promise<void> {
  try {
    const { db } = await database();
    await db.insert(apiLog).values(batch.map((e) => ({ ...e, requestBody: e.requestBody ?? null, responseBody: e.responseBody ?? null })));
  } catch (error) {
    logger.error("api log write failed", { error, entries: batch.length });
  }
}
