import { sql } from "drizzle-orm";
import type { Database } from "@/db";
import { secretLength } from "@/lib/domain/keys/format";

/** Anything in our key format, whatever the tests sent (bodies, queries, headers). */
const keyFormat = /svc_(test|live)_[A-Za-z0-9]/;
/** Runs of the secrets' alphabet long enough to hold one. */
const secretSized = new RegExp(`[A-Za-z0-9]{${secretLength},}`, "g");

/** The random part of a key (`<id>|svc_test_<secret>`), so that a secret stored without its prefix is found too. */
const secretOf = (key: string) => key.slice(key.indexOf("|") + 1).replace(/^svc_(test|live)_/, "");

/**
 * The request ids of the rows holding a key's secret anywhere in their text, or anything in our
 * key format. Each text is read once, whatever the number of keys: a rolling hash of every window
 * of a secret's length in each run of its alphabet is looked up among the secrets' hashes (the same
 * finding as searching every text for every secret, in time linear in the log; the string sweeps
 * write runs of a megabyte).
 */
export function rowsHoldingSecrets(rows: { requestId: string; text: string }[], keys: Iterable<string>): string[] {
  const secrets = new Map<number, string[]>();
  // Hashes seen, one bit each: most windows are ruled out without a lookup in the map.
  const seen = new Uint8Array(1 << 17);
  for (const secret of new Set([...keys].map(secretOf))) {
    const hash = hashOf(secret);
    secrets.set(hash, [...(secrets.get(hash) ?? []), secret]);
    seen[(hash >>> 3) & 0x1ffff] |= 1 << (hash & 7);
  }
  const holdsSecret = (text: string) => {
    for (const found of text.matchAll(secretSized)) {
      const run = found[0];
      let hash = hashOf(run.slice(0, secretLength));
      for (let end = secretLength; ; end++) {
        const start = end - secretLength;
        if (seen[(hash >>> 3) & 0x1ffff] & (1 << (hash & 7)) && secrets.get(hash)?.some((secret) => run.startsWith(secret, start)))
          return true;
        if (end === run.length) break;
        hash = (Math.imul(hash - Math.imul(run.charCodeAt(start), highestPower), base) + run.charCodeAt(end)) | 0;
      }
    }
    return false;
  };
  return rows.filter(({ text }) => keyFormat.test(text) || holdsSecret(text)).map((row) => row.requestId);
}

const base = 131;
/** base^(secretLength - 1) in 32-bit arithmetic: the weight of a window's first character, removed as it slides on. */
const highestPower = Array.from({ length: secretLength - 1 }).reduce<number>((power) => Math.imul(power, base), 1);
const hashOf = (text: string) => [...text].reduce((hash, char) => (Math.imul(hash, base) + char.charCodeAt(0)) | 0, 0);

/**
 * The API log as an attacker with a copy of it would read it: every row of the database, each as
 * the text of all its columns, checked against `keys`. Returns the request ids of leaking rows.
 * PostgreSQL cuts each row's text down to the pieces that could hold a key (our key format, runs of
 * a secret's alphabet at least a secret long) in one pass; rows of the string sweeps are megabytes.
 */
export async function auditApiLog(db: Database, keys: Iterable<string>): Promise<string[]> {
  const pieces = await db.rows<{ requestId: string; text: string }>(sql`
    select row.request_id as "requestId", piece.text
    from (select l.*, b.request_body, b.response_body from api_log l left join api_log_bodies b using (id, created_at)) as row,
      lateral regexp_matches(row::text, ${`(svc_(?:test|live)_[A-Za-z0-9]|[A-Za-z0-9]{${secretLength},})`}, 'g') as found,
      lateral (select found[1] as text) as piece`);
  return [...new Set(rowsHoldingSecrets(pieces, keys))];
}
