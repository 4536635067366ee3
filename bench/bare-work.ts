/**
 * The database work of the benchmark's baselines, without any server around it: the product's key
 * lookup, listing read and PATCH transaction done with plain postgres.js, and nothing else (no rate
 * limit, API log or validator). Two front-ends serve it: `bench/bare-server.ts` (`node:http`, the
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
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { apply } from "json-merge-patch";
import postgres from "postgres";

// The same pool size as the product's postgres.js client (db/client.ts).
const sql = postgres(process.env.DATABASE_URL!, { max: 10, prepare: true, onnotice: () => {} });
const appUrl = process.env.APP_URL ?? "http://127.0.0.1";

/** Closes the pool (the servers call it when stopped). */
export const closeBare = () => sql.end({ timeout: 2 });

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
  body: unknown;
  headers: Record<string, string>;
}

const listingPath = /^\/api\/v1\/account\/listings\/([A-Z0-9]{8})$/;
const editPath = /^\/api\/v1\/listings\/([A-Z0-9]{8})$/;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): BareAnswer => ({ status, body, headers });

/** One request of the baselines, whichever server received it. */
export async function handleBare(req: BareRequest): Promise<BareAnswer> {
  try {
    const key = await authenticate(req.authorization);
    if (!key) return answer(401, { code: "unauthenticated" });
    if (req.url === "/api/v1/ping")
      return answer(200, { data: { pong: true, key: { id: key.key_id, permissions: key.permissions }, account: { id: key.account_id } } });
    const editCode = req.method === "PATCH" ? req.url.match(editPath)?.[1] : undefined;
    if (editCode) {
      const patch = JSON.parse(await req.text());
      const { status, row } = await editListing(key, editCode, patch, req.ifMatch);
      return answer(status, { data: row, warnings: [] }, { etag: etagOf(row as never) });
    }
    const code = req.url.match(listingPath)?.[1];
    const listing = code ? await readListing(key, code) : undefined;
    return listing ? answer(200, { data: listing, warnings: [] }, { etag: etagOf(listing as never) }) : answer(404, { code: "not_found" });
  } catch (error) {
    if (error instanceof Refusal) return answer(error.status, { code: error.code });
    console.error(error);
    return answer(500, { code: "internal_error" });
  }
}
