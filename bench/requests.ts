import type { LoadRequest } from "./load";
import type { BenchAccount, OwnedListing } from "./seed";

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The same GET with every key in turn. */
export const keysInTurn =
  (keys: string[], path: string) =>
  (n: number): LoadRequest => ({ method: "GET", path, headers: bearer(keys[n % keys.length]) });

/** Each listing read with a key of its own account, the account's keys taking turns. */
export function readRequests(accounts: BenchAccount[], listings: OwnedListing[]): LoadRequest[] {
  const keysOf = new Map(accounts.map((a) => [a.id, a.keys]));
  const turns = new Map<string, number>();
  return listings.map(({ code, accountId }) => {
    const turn = turns.get(accountId) ?? 0;
    turns.set(accountId, turn + 1);
    const keys = keysOf.get(accountId)!;
    return { method: "GET", path: `/api/v1/account/listings/${code}`, headers: bearer(keys[turn % keys.length]) };
  });
}

/**
 * PATCH the listings in rotation, each pass with a new price so that every request writes. Runs
 * over the same listings give distinct `firstPrice`s far enough apart that no run repeats a price.
 */
export function patchRequestAt(accounts: BenchAccount[], listings: OwnedListing[], firstPrice = 200_000) {
  const reads = readRequests(accounts, listings);
  return (n: number): LoadRequest => {
    const read = reads[n % reads.length];
    return {
      method: "PATCH",
      path: read.path.replace("/account/listings/", "/listings/"),
      headers: { ...read.headers, "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ price: firstPrice + Math.floor(n / reads.length) }),
    };
  };
}

export const cycle = (requests: LoadRequest[]) => (n: number) => requests[n % requests.length];
