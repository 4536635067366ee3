/**
 * The baseline of the benchmark: `node:http` + postgres.js doing the same database work as the
 * product's `GET /api/v1/ping` and `GET /api/v1/account/listings/{code}` (one key lookup joined
 * with its account, the secret's SHA-256 compared; the listing read by code with its lister) and
 * nothing else: no framework, no rate limit, no API log. Started by `bench/run.ts` as a child
 * process with `DATABASE_URL`; it prints `{"port":N}` once listening.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import postgres from "postgres";

// The same pool size as the product's postgres.js client (db/client.ts).
const sql = postgres(process.env.DATABASE_URL!, { max: 10, prepare: true, onnotice: () => {} });

interface KeyRow {
  id: string;
  secret_hash: string;
  permissions: string[];
  expires_at: Date;
  revoked_at: Date | null;
  account_id: string;
  active: boolean;
}

async function authenticate(header: string | undefined): Promise<KeyRow | undefined> {
  const token = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const bar = token?.indexOf("|") ?? -1;
  if (!token || bar < 0) return undefined;
  const [row] = await sql<KeyRow[]>`
    select k.id, k.secret_hash, k.permissions, k.expires_at, k.revoked_at, a.id as account_id, a.active
    from api_keys k
    join accounts a on a.id = k.account_id
    left join agency_members m on m.account_id = a.id
    where k.id = ${token.slice(0, bar)}`;
  if (!row || row.revoked_at || row.expires_at <= new Date() || !row.active) return undefined;
  const given = createHash("sha256").update(token.slice(bar + 1)).digest();
  const stored = Buffer.from(row.secret_hash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored) ? row : undefined;
}

async function readListing(key: KeyRow, code: string) {
  const [row] = await sql`
    select l.*, coalesce(g.name, a.name) as lister, a.phone as account_phone
    from listings l
    join accounts a on a.id = l.account_id
    left join agencies g on g.id = l.agency_id
    where l.code = ${code} and l.account_id = ${key.account_id} and l.deleted_at is null`;
  return row;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const listingPath = /^\/api\/v1\/account\/listings\/([A-Z0-9]{8})$/;

const server = createServer(async (req, res) => {
  try {
    const key = await authenticate(req.headers.authorization);
    if (!key) return send(res, 401, { code: "unauthenticated" });
    if (req.url === "/api/v1/ping") return send(res, 200, { data: { pong: true, key: { id: key.id, permissions: key.permissions }, account: { id: key.account_id } } });
    const code = req.url?.match(listingPath)?.[1];
    const listing = code ? await readListing(key, code) : undefined;
    return listing ? send(res, 200, { data: listing, warnings: [] }) : send(res, 404, { code: "not_found" });
  } catch (error) {
    console.error(error);
    send(res, 500, { code: "internal_error" });
  }
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});

process.on("SIGTERM", () => {
  server.close(() => void sql.end({ timeout: 2 }).then(() => process.exit(0)));
  server.closeAllConnections();
});
