/**
 * The database work of the benchmark's baselines, without any server around it: the product's key
 * lookup, listing read and PATCH transaction, and its API log rows, done with plain postgres.js, and
 * nothing else (no rate limit, redaction or validator). Two front-ends serve it: `bench/bare-server.ts` (`node:http`, the
 * baseline) and `bench/ceiling-app` (one Next.js route handler, the ceiling: what any Next.js
 * handler doing this work can reach).
 *
 * - `GET /api/v1/ping`: the product's key lookup (key joined with its account and agency
 *   membership, by id), the secret's SHA-256 compared in constant time.
 * - `GET /api/v1/account/listings/{code}`: the key lookup, then the listing by code with its lister.
 * - `PATCH /api/v1/listings/{code}`: the transaction of `editListing` (lib/domain/listings/edit.ts)
 *   statement for statement: the key lookup and permission check, then in one transaction
 *   `SELECT … FOR UPDATE OF listings NOWAIT` of the listing with its lister (409 when locked),
 *   `If-Match`, the merge patch, `UPDATE listings … RETURNING *` (new version and `mod_seq`,
 *   search columns), and the outbox write of `recordEvent` (lib/domain/events/record-event.ts: advisory
 *   lock, keyed-account check, `INSERT INTO events`) wherever the product records an event, i.e.
 *   when an unconfirmed listing is confirmed by an API edit. The product also runs its whole
 *   validator on the patched document; the baseline does not.
 * - Every request: its row in the API log, with the request's and the response's bodies, queued and
 *   written 200 at a time (or after a second) by the product's own statement
 *   (lib/adapters/http/api-log.ts). The spec makes the log part of every request (`X-Request-Id`,
 *   bodies kept 30 days), so it is work any handler must do, not the product's extra.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { apply } from "json-merge-patch";
import postgres from "postgres";

// The same pool size as the product's postgres.js client (db/client.ts).
const sql = postgres(process.env.DATABASE_URL!, { max: 10, prepare: true, onnotice: () => {} });
const appUrl = process.env.APP_URL ?? "http://127.0.0.1";

/** Writes the queued log rows and closes the pool (the servers call it when stopped). */
export const closeBare = () => flushLog().then(() => sql.end({ timeout: 2 }));

interface KeyRow {
  key_id: string;
  secret_hash: string;
  environment: string;
  permissions: string[];
  expires_at: Date;
  revoked_at: Date | null;
  account_id: string;
  active: boolean;
  confirmed: boolean;
  agency_id: string | null;
  agency_role: string | null;
}

/** `lib/domain/keys/authenticate.ts`: the same lookup and the same checks, sandbox keys only. */
async function authenticate(header: string | undefined): Promise<KeyRow | undefined> {
  const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const bar = token?.indexOf("|") ?? -1;
  if (!token || bar < 0 || !token.startsWith("svc_test_", bar + 1)) return undefined;
  const [row] = await sql<KeyRow[]>`
    select k.id as key_id, k.name, k.secret_hash, k.environment, k.permissions, k.expires_at, k.revoked_at,
           a.id as account_id, a.email, a.name as account_name, a.phone, a.language, a.active, a.confirmed,
           m.agency_id, m.role as agency_role
    from api_keys k
    join accounts a on a.id = k.account_id
    left join agency_members m on m.account_id = a.id
    where k.id = ${token.slice(0, bar)}`;
  if (!row || row.environment !== "sandbox" || row.revoked_at || row.expires_at <= new Date() || !row.active) return undefined;
  const given = createHash("sha256")
    .update(token.slice(bar + 1))
    .digest();
  const stored = Buffer.from(row.secret_hash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored) ? row : undefined;
}

/** `visibleTo` of lib/domain/listings/scope.ts: own listings, and the agency's for its owners and admins. */
const visible = (key: KeyRow) =>
  key.agency_id && key.agency_role !== "agent"
    ? sql`(l.account_id = ${key.account_id} or l.agency_id = ${key.agency_id}) and l.deleted_at is null`
    : sql`l.account_id = ${key.account_id} and l.deleted_at is null`;

async function readListing(key: KeyRow, code: string) {
  const [row] = await sql`
    select l.*, coalesce(g.name, a.name) as lister, a.phone as account_phone
    from listings l
    join accounts a on a.id = l.account_id
    left join agencies g on g.id = l.agency_id
    where l.code = ${code} and ${visible(key)}`;
  return row;
}

const etagOf = (row: { id: string; version: number }) =>
  `"${createHash("sha256").update(`${row.id}:${row.version}`).digest("base64url").slice(0, 22)}"`;
const published = new Set(["active", "paused", "unconfirmed"]);
const frozen = new Set(["sold", "hidden"]);
// First key of the product's per-account event lock (lib/domain/events/record-event.ts).
const accountEventsLock = 0x65767473;

class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {}
}

/** `editListing` without the validator: the patched document is stored as it comes out of the merge. */
async function editListing(key: KeyRow, code: string, patch: unknown, ifMatch: string | undefined) {
  if (!key.permissions.includes("listings:write")) throw new Refusal(403, "missing_ability");
  if (!key.confirmed) throw new Refusal(403, "forbidden");
  return sql.begin(async (tx) => {
    let found;
    try {
      [found] = await tx`
        select l.*, a.name as account_name, a.phone as account_phone, g.name as agency_name
        from listings l
        join accounts a on a.id = l.account_id
        left join agencies g on g.id = l.agency_id
        where l.code = ${code} and ${visible(key)}
        for update of l nowait`;
    } catch (error) {
      if ((error as { code?: string }).code === "55P03") throw new Refusal(409, "listing_busy");
      throw error;
    }
    if (!found) throw new Refusal(404, "not_found");
    if (ifMatch !== undefined && !ifMatch.split(",").some((tag) => tag.trim() === "*" || tag.trim() === etagOf(found as never))) {
      throw new Refusal(412, "listing_changed_meanwhile");
    }
    if (frozen.has(found.status)) throw new Refusal(409, "listing_action_refused");
    const base = found.pending_fields ?? found.fields;
    const fields = apply(structuredClone(base), structuredClone(patch)) as Record<string, unknown>;
    const isPublished = published.has(found.status);
    const confirm = found.status === "unconfirmed";
    if (isDeepStrictEqual(fields, base) && !confirm) return { status: 200, row: found };
    const now = new Date();
    const price = typeof fields.price === "number" && (fields.price_currency ?? "EUR") === "EUR" ? Math.round(fields.price) : null;
    const [updated] = isPublished
      ? await tx`
          update listings set pending_fields = ${isDeepStrictEqual(fields, found.fields) ? null : sql.json(fields as postgres.JSONValue)},
            status = ${confirm ? "active" : found.status}, confirmed_at = ${confirm ? now : found.confirmed_at},
            version = ${found.version + 1}, mod_seq = nextval(pg_get_serial_sequence('listings', 'mod_seq')), updated_at = ${now}
          where id = ${found.id} returning *`
      : await tx`
          update listings set fields = ${sql.json(fields as postgres.JSONValue)},
            status = ${found.status === "rejected" ? "pending" : found.status},
            rejection_reason = ${found.status === "rejected" ? null : found.rejection_reason},
            rejection_codes = ${found.status === "rejected" ? null : found.rejection_codes},
            city = ${typeof fields.city === "string" ? fields.city.trim().toLowerCase() : null},
            rooms = ${typeof fields.rooms === "number" ? fields.rooms : null}, price_eur = ${price},
            version = ${found.version + 1}, mod_seq = nextval(pg_get_serial_sequence('listings', 'mod_seq')), updated_at = ${now}
          where id = ${found.id} returning *`;
    if (confirm) {
      const [keyed] = await tx`
        select pg_advisory_xact_lock(${accountEventsLock}, hashtext(${found.account_id})) as locked
        from api_keys where account_id = ${found.account_id} and revoked_at is null limit 1`;
      if (keyed) {
        const data = {
          code: updated.code,
          external_ref: updated.external_ref,
          status: updated.status,
          url: `${appUrl}/listings/${updated.code}`,
        };
        await tx`insert into events (account_id, type, data, created_at) values (${found.account_id}, 'listing.published', ${sql.json(data)}, ${now}) returning *`;
      }
    }
    return {
      status: isPublished ? 202 : 200,
      row: { ...updated, lister: found.agency_name ?? found.account_name, account_phone: found.account_phone },
    };
  });
}

export interface BareRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/ping`. */
  url: string;
  authorization: string | undefined;
  ifMatch: string | undefined;
  /** The body, read only by a PATCH. */
  text(): Promise<string>;
}

export interface BareAnswer {
  status: number;
  /** The body as JSON text. */
  text: string;
  headers: Record<string, string>;
}

interface LogRow {
  requestId: string;
  keyId: string | null;
  accountId: string | null;
  method: string;
  path: string;
  query: string | null;
  status: number;
  durationMs: number;
  requestText: string | null;
  responseText: string;
  createdAt: Date;
}

const logBatch = 200;
let logRows: LogRow[] = [];
let logTimer: NodeJS.Timeout | undefined;
let logWrites: Promise<unknown> = Promise.resolve();

function logRequest(row: LogRow): void {
  logRows.push(row);
  if (logRows.length >= logBatch) void flushLog();
  else logTimer ??= setTimeout(() => void flushLog(), 1_000);
}

function flushLog(): Promise<unknown> {
  clearTimeout(logTimer);
  logTimer = undefined;
  const batch = logRows;
  logRows = [];
  if (batch.length) logWrites = logWrites.then(() => writeLog(batch)).catch((error: unknown) => console.error(error));
  return logWrites;
}

/** The statement of `insert` in lib/adapters/http/api-log.ts, with the same parameters. */
function writeLog(batch: LogRow[]) {
  const rows = JSON.stringify(
    batch.map((e, index) => ({
      n: index + 1,
      request_id: e.requestId,
      key_id: e.keyId,
      account_id: e.accountId,
      method: e.method,
      path: e.path,
      query: e.query,
      status: e.status,
      duration_ms: e.durationMs,
      ip: null,
      created_at: e.createdAt.toISOString(),
    })),
  );
  const requests = batch.map((e) => e.requestText ?? "").join("\u001e");
  const responses = batch.map((e) => e.responseText).join("\u001e");
  return sql`
    with entry as materialized (
      select nextval('api_log_id_seq') as id, r.*
      from jsonb_to_recordset(${rows}::text::jsonb) as r(
        n integer, request_id text, key_id text, account_id text, method text, path text, query text, status integer,
        duration_ms integer, ip text, created_at timestamptz)
    ), body as (
      select entry.id, entry.created_at, nullif(request.text, '')::jsonb as request_body, nullif(response.text, '')::jsonb as response_body
      from entry
      left join string_to_table(${requests}::text, ${"\u001e"}) with ordinality as request(text, n) on request.n = entry.n
      left join string_to_table(${responses}::text, ${"\u001e"}) with ordinality as response(text, n) on response.n = entry.n
    ), bodies as (
      insert into api_log_bodies (id, created_at, request_body, response_body)
      select id, created_at, request_body, response_body from body where request_body is not null or response_body is not null
    )
    insert into api_log (id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at)
    select id, request_id, key_id, account_id, method, path, query, status, duration_ms, ip, created_at from entry`;
}

const listingPath = /^\/api\/v1\/account\/listings\/([A-Z0-9]{8})$/;
const editPath = /^\/api\/v1\/listings\/([A-Z0-9]{8})$/;
interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What one request gets, and what its log row needs to know of it. */
interface Exchange {
  key?: KeyRow;
  requestText?: string;
}

async function answerBare(req: BareRequest, exchange: Exchange): Promise<Answer> {
  try {
    const key = (exchange.key = await authenticate(req.authorization));
    if (!key) return { status: 401, body: { code: "unauthenticated" } };
    if (req.url === "/api/v1/ping")
      return {
        status: 200,
        body: { data: { pong: true, key: { id: key.key_id, permissions: key.permissions }, account: { id: key.account_id } } },
      };
    const editCode = req.method === "PATCH" ? req.url.match(editPath)?.[1] : undefined;
    if (editCode) {
      const patch = JSON.parse((exchange.requestText = await req.text()));
      const { status, row } = await editListing(key, editCode, patch, req.ifMatch);
      return { status, body: { data: row, warnings: [] }, headers: { etag: etagOf(row as never) } };
    }
    const code = req.url.match(listingPath)?.[1];
    const listing = code ? await readListing(key, code) : undefined;
    return listing
      ? { status: 200, body: { data: listing, warnings: [] }, headers: { etag: etagOf(listing as never) } }
      : { status: 404, body: { code: "not_found" } };
  } catch (error) {
    if (error instanceof Refusal) return { status: error.status, body: { code: error.code } };
    console.error(error);
    return { status: 500, body: { code: "internal_error" } };
  }
}

/** One request of the baselines, whichever server received it, logged as the product logs it. */
export async function handleBare(req: BareRequest): Promise<BareAnswer> {
  const createdAt = new Date();
  const started = performance.now();
  const exchange: Exchange = {};
  const { status, body, headers = {} } = await answerBare(req, exchange);
  const requestId = randomUUID();
  const text = JSON.stringify(body);
  const query = req.url.indexOf("?");
  logRequest({
    requestId,
    keyId: exchange.key?.key_id ?? null,
    accountId: exchange.key?.account_id ?? null,
    method: req.method,
    path: query < 0 ? req.url : req.url.slice(0, query),
    query: query < 0 ? null : req.url.slice(query + 1),
    status,
    durationMs: Math.round(performance.now() - started),
    requestText: exchange.requestText ?? null,
    responseText: text,
    createdAt,
  });
  return { status, text, headers: { ...headers, "x-request-id": requestId } };
}
