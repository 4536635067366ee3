import { createHash } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { Database } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { AppError, ValidationError } from "@/lib/base/errors";
import { json } from "./respond";

export const idempotencyKeyMaxLength = 64;
/** How long a key is remembered, counted from the first request. */
export const idempotencyWindowMs = 10 * 60_000;
const storedHeaders = ["content-type", "location", "etag"];
// A claim can lose twice in a row only when the holder keeps failing and retrying in between.
const claimAttempts = 3;

export interface IdempotentRequest {
  database: Database;
  /** Keys are scoped per API key: two keys may use the same value for unrelated requests. */
  keyId: string;
  /** The `Idempotency-Key` header, null when absent. */
  header: string | null;
  method: string;
  path: string;
  /** The parsed JSON body; key order does not matter for recognising a repeat. */
  body: unknown;
  now: Date;
}

type Row = typeof idempotencyKeys.$inferSelect;

/**
 * Runs a create at most once per `Idempotency-Key` (docs/api.md, Listings API). The first request commits an
 * `in_flight` row before running, so a concurrent repeat finds it and gets 409 instead of creating
 * twice. A 2xx answer is stored and replayed to repeats with the same body for 10 minutes; a repeat
 * with another body gets 422. A run that throws or answers 4xx or 5xx wrote nothing and releases the
 * key, as Stripe does for refused requests: the client fixes the body (or waits) and retries with the
 * same key. A process that dies mid-run leaves its row in flight until it expires.
 */
export async function withIdempotency(request: IdempotentRequest, run: () => Promise<Response>): Promise<Response> {
  if (request.header === null) return run();
  const key = checkedKey(request.header);
  const hash = requestHash(request);
  for (let attempt = 0; attempt < claimAttempts; attempt++) {
    const claim = await claimKey(request, key, hash);
    if (claim) return runClaimed(request.database, claim, run);
    const [held] = await request.database.connection
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.keyId, request.keyId), eq(idempotencyKeys.idempotencyKey, key)));
    // Gone between the two statements: the holder failed and released it; try to claim it again.
    if (!held) continue;
    if (held.requestHash !== hash) throw new AppError("idempotency_key_reused");
    if (held.state === "in_flight") throw new AppError("idempotency_key_in_use");
    return replay(held);
  }
  throw new AppError("idempotency_key_in_use");
}

function checkedKey(header: string): string {
  const pointer = { pointer: "/Idempotency-Key", in: "header" as const };
  if (header.length === 0) throw new ValidationError([{ ...pointer, code: "min", params: { min: 1, unit: "characters" } }]);
  if (header.length > idempotencyKeyMaxLength)
    throw new ValidationError([{ ...pointer, code: "max", params: { max: idempotencyKeyMaxLength, unit: "characters" } }]);
  return header;
}

function requestHash({ method, path, body }: IdempotentRequest): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest("hex");
}

/** JSON with object keys sorted at every depth: the same document always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

interface Claim {
  id: number;
  createdAt: Date;
}

/** Inserts the in-flight row, or takes over an expired one; undefined when a live row holds the key. */
async function claimKey({ database, keyId, now }: IdempotentRequest, key: string, hash: string): Promise<Claim | undefined> {
  const fresh = {
    requestHash: hash,
    state: "in_flight" as const,
    createdAt: now,
    expiresAt: new Date(now.getTime() + idempotencyWindowMs),
  };
  const [claim] = await database.connection
    .insert(idempotencyKeys)
    .values({ keyId, idempotencyKey: key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.keyId, idempotencyKeys.idempotencyKey],
      set: { ...fresh, responseStatus: null, responseHeaders: null, responseBody: null },
      setWhere: lte(idempotencyKeys.expiresAt, now),
    })
    .returning({ id: idempotencyKeys.id, createdAt: idempotencyKeys.createdAt });
  return claim;
}

async function runClaimed(database: Database, claim: Claim, run: () => Promise<Response>): Promise<Response> {
  // `createdAt` tells this claim from a later one that took the row over after it expired.
  const ours = and(
    eq(idempotencyKeys.id, claim.id),
    eq(idempotencyKeys.createdAt, claim.createdAt),
    eq(idempotencyKeys.state, "in_flight"),
  );
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    await database.connection.delete(idempotencyKeys).where(ours);
    throw error;
  }
  if (response.status >= 400) {
    await database.connection.delete(idempotencyKeys).where(ours);
    return response;
  }
  const headers = Object.fromEntries(
    storedHeaders.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
  );
  await database.connection
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: response.status, responseHeaders: headers, responseBody: await response.clone().text() })
    .where(ours);
  return response;
}

function replay(row: Row): Response {
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set("Idempotent-Replayed", "true");
  const status = row.responseStatus!;
  const body = row.responseBody ?? "";
  const contentType = headers.get("content-type");
  // Through json() so that the API log records the replayed body like any other.
  if (body && contentType?.includes("json")) return json(JSON.parse(body), { status, headers, contentType });
  return new Response(body || null, { status, headers });
}
