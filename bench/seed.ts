import type { Sql } from "postgres";
import { createAccount } from "@/lib/domain/accounts/create-account";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { createKey, maxKeysPerAccount } from "@/lib/domain/keys/create-key";
import { isListingCode } from "@/lib/domain/listings/codes";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { searchKey } from "@/lib/domain/listings/internal/search-key";
import { searchColumns } from "@/lib/domain/listings/store";
import { validateOrThrow } from "@/lib/domain/listings/internal/validate";
import { accountsPerPool, type LoadSettings } from "./turns";

export interface BenchAccount {
  id: string;
  /** Whole keys (`<id>|svc_test_…`), every permission. */
  keys: string[];
}

/** Accounts made through the product's services, each with the most keys an account may hold. */
export async function createAccounts(ctx: ServiceContext<OperatorActor>, label: string, count: number): Promise<BenchAccount[]> {
  const accounts: BenchAccount[] = [];
  // Argon2 runs on libuv's thread pool: a few accounts at once is as fast as it gets.
  for (let start = 0; start < count; start += 4) {
    const batch = Array.from({ length: Math.min(4, count - start) }, (_, i) => start + i);
    accounts.push(...(await Promise.all(batch.map((i) => createAccountWithKeys(ctx, `bench-${label}-${i}@bench.example.com`)))));
  }
  return accounts;
}

async function createAccountWithKeys(ctx: ServiceContext<OperatorActor>, email: string): Promise<BenchAccount> {
  const account = await createAccount({ ctx, input: { email, password: "bench-password", name: email.split("@")[0] } });
  const keys: string[] = [];
  for (let i = 0; i < maxKeysPerAccount; i++) {
    const key = await createKey({
      ctx,
      input: { accountId: account.id, name: `bench ${i}`, permissions: ["listings:read", "listings:write", "media:write"], days: 30 },
    });
    keys.push(key.key);
  }
  return { id: account.id, keys };
}

export interface ListingTemplate {
  fields: Record<string, unknown>;
  city: string | null;
  rooms: number | null;
}

/** The document and search columns `createListing` would store for the apartment, from the product's own validator. */
export async function listingTemplate(ctx: ServiceContext): Promise<ListingTemplate> {
  const valid = await validateOrThrow(ctx, { document: exampleApartment, mode: "create" });
  const { city, rooms } = searchColumns(valid.fields, valid.rates);
  return { fields: valid.fields, city, rooms };
}

// The alphabet of lib/domain/listings/codes.ts; every seeded code is checked with its `isListingCode`.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const codeSpace = 31n ** 8n;
/** Row n's code: n scattered over the code space by a multiplier prime to 31 (a bijection), in base 31. */
const codeOf = (n: string) => {
  const scattered = `((${n} * 7919 + 104729) % ${codeSpace})`;
  return Array.from({ length: 8 }, (_, k) => `substr('${codeAlphabet}', ((${scattered} / ${31n ** BigInt(k)}) % 31)::int + 1, 1)`).join(
    " || ",
  );
};

/**
 * Inserts listings `first`…`first + count - 1` (ids and codes derived from the number, so separate
 * calls never collide) as rows `createListing` writes: `pending`, from the API, the template's
 * document with a price of its own. Owners take turns. Batches of `batchSize` report progress.
 * With `publishedIn`, they are `active` instead, the cities taking turns (the city as written in the
 * document, its search form in the search column, as the API writes them).
 */
export async function seedListings(
  pg: Sql,
  input: {
    template: ListingTemplate;
    owners: string[];
    first: number;
    count: number;
    batchSize?: number;
    progress?: (done: number) => void;
    publishedIn?: string[];
  },
): Promise<void> {
  const cities = input.publishedIn ?? [input.template.fields.city as string];
  const cityKeys = input.publishedIn ? cities.map(searchKey) : [input.template.city];
  const batchSize = input.batchSize ?? 100_000;
  for (let done = 0; done < input.count; done += batchSize) {
    const from = input.first + done;
    const to = from + Math.min(batchSize, input.count - done) - 1;
    await pg.unsafe(
      `insert into listings (id, code, account_id, type, transaction, status, published_at, fields, source, city, rooms, price_eur,
                             created_at, updated_at)
       select 'lst_' || lpad(n::text, 16, '0'), ${codeOf("n")}, ($1::text[])[(1 + n % $2)::int], $3::text, $4::text, $10::text,
              case when $10 = 'active' then now() end,
              jsonb_set(jsonb_set($5::text::jsonb, '{price}', to_jsonb(price)), '{city}', to_jsonb(($11::text[])[city])),
              'api', ($6::text[])[city], $7::int, price, now(), now()
       from (select n, 100000 + n % 100000 as price, (1 + n % $12)::int as city from generate_series($8::bigint, $9::bigint) as n) as numbers`,
      [
        input.owners,
        input.owners.length,
        String(input.template.fields.type),
        String(input.template.fields.transaction),
        JSON.stringify(input.template.fields),
        cityKeys,
        input.template.rooms,
        from,
        to,
        input.publishedIn ? "active" : "pending",
        cities,
        cities.length,
      ] as never[],
    );
    input.progress?.(to - input.first + 1);
  }
}

export interface OwnedListing {
  code: string;
  accountId: string;
}

export async function listingsOf(pg: Sql, accountIds: string[]): Promise<OwnedListing[]> {
  const rows = await pg<
    { code: string; account_id: string }[]
  >`select code, account_id from listings where account_id = any(${accountIds}) order by id`;
  const bad = rows.find((r) => !isListingCode(r.code));
  if (bad) throw new Error(`seeded code ${bad.code} is not a listing code`);
  return rows.map((r) => ({ code: r.code, accountId: r.account_id }));
}

/** The API figures' accounts (ping, read, PATCH) and the 10 000 pending listings the read and PATCH accounts own. */
export interface FigureData {
  pingAccounts: BenchAccount[];
  readAccounts: BenchAccount[];
  patchAccounts: BenchAccount[];
  template: ListingTemplate;
  readListings: OwnedListing[];
  patchListings: OwnedListing[];
}

/** Three sets of `accountsPerSet` accounts with 10 keys each, then `listings` pending listings spread over the read and PATCH accounts. */
export async function seedFigureData(
  ctx: ServiceContext<OperatorActor>,
  pg: Sql,
  settings: Pick<LoadSettings, "duration" | "warmup" | "maxRate"> & { listings: number },
  log: (line: string) => void,
): Promise<FigureData> {
  const sizes = {
    accountsPerSet: accountsPerPool(settings),
    listings: settings.listings,
    maxRate: settings.maxRate,
    seconds: settings.duration + settings.warmup * 3,
  };
  log(`creating 3 × ${sizes.accountsPerSet} accounts with 10 keys each (≤ ${sizes.maxRate} req/s for ${sizes.seconds} s without a 429)`);
  const [pingAccounts, readAccounts, patchAccounts] = [
    await createAccounts(ctx, "ping", sizes.accountsPerSet),
    await createAccounts(ctx, "read", sizes.accountsPerSet),
    await createAccounts(ctx, "patch", sizes.accountsPerSet),
  ];
  const template = await listingTemplate(ctx);
  log(`seeding ${sizes.listings} listings`);
  await seedListings(pg, { template, owners: [...readAccounts, ...patchAccounts].map((a) => a.id), first: 1, count: sizes.listings });
  const readListings = await listingsOf(
    pg,
    readAccounts.map((a) => a.id),
  );
  const patchListings = await listingsOf(
    pg,
    patchAccounts.map((a) => a.id),
  );
  return { pingAccounts, readAccounts, patchAccounts, template, readListings, patchListings };
}
