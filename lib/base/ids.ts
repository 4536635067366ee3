import { randomBytes } from "node:crypto";

/** Every prefixed identifier of the platform comes from this registry. */
export const idPrefixes = {
  account: "acct",
  agency: "agcy",
  apiKey: "key",
  activity: "act",
  job: "job",
  request: "req",
  listing: "lst",
  report: "rpt",
  webhook: "wh",
  webhookDelivery: "whd",
  event: "evt",
  upload: "upl",
  photo: "pht",
  client: "svcc",
  accountToken: "atok",
  authorizationCode: "authz",
  listingImport: "imp",
  feed: "feed",
} as const;

export type IdKind = keyof typeof idPrefixes;

// Crockford base32 in lower case: no i, l, o, u, so ids read back unambiguously.
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

export function randomToken(length: number, chars: string = alphabet): string {
  const bytes = randomBytes(length);
  let out = "";
  for (let i = 0; i < length; i++) out += chars[bytes[i] % chars.length];
  return out;
}

export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${randomToken(16)}`;
}

export const idPattern = (kind: IdKind): RegExp => new RegExp(`^${idPrefixes[kind]}_[${alphabet}]{16}$`);
