import { z } from "zod";
import type { Queryable } from "@/db";
import { currencyRates } from "@/db/schema";
import type { ServiceContext } from "@/lib/context";
import { baseCurrency, currencies, type CurrencyRates } from "@/lib/vocabulary/currencies";
import { parseOrThrow } from "@/lib/validation/zod";

/**
 * A reference rate older than this counts as unavailable: converting with a stale rate would put
 * listings in the wrong price band of the search, so prices in that currency are refused
 * (`price_currency_unavailable`) until an operator sets the rate again (`rates:set`).
 */
export const rateMaxAgeDays = 7;

const rateMaxAgeMs = rateMaxAgeDays * 86_400_000;

/** The current reference rates by currency; EUR is always 1, a missing or stale rate is undefined. */
export async function loadRates(db: Queryable, now: Date = new Date()): Promise<CurrencyRates> {
  const rows = await db.select().from(currencyRates);
  const rates: CurrencyRates = {};
  for (const row of rows) {
    rates[row.currency] = isCurrent(row.updatedAt, now) ? { eurPerUnit: row.eurPerUnit, updatedAt: row.updatedAt } : undefined;
  }
  rates[baseCurrency] = { eurPerUnit: 1, updatedAt: now };
  return rates;
}

const isCurrent = (updatedAt: Date, now: Date) => now.getTime() - updatedAt.getTime() <= rateMaxAgeMs;

const convertible = currencies.codes.filter((code) => code !== baseCurrency) as [string, ...string[]];

// The column keeps 8 decimals: a smaller rate would be stored as 0.
export const rateCurrency = z.enum(convertible);
export const eurPerUnitValue = z.number().min(0.00000001).max(1_000_000);

export const setRateInput = z.object({ currency: rateCurrency, eurPerUnit: eurPerUnitValue });

/** Sets the reference rate of a currency (euros per unit) as of now. EUR is fixed at 1. */
export async function setRate({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof setRateInput> }) {
  const { currency, eurPerUnit } = parseOrThrow(setRateInput, input);
  const [row] = await ctx.database.db
    .insert(currencyRates)
    .values({ currency, eurPerUnit, updatedAt: ctx.now })
    .onConflictDoUpdate({ target: currencyRates.currency, set: { eurPerUnit, updatedAt: ctx.now } })
    .returning();
  return row;
}

/** Every offered currency with its stored rate and whether that rate is current. */
export async function listRates({ ctx }: { ctx: ServiceContext }) {
  const stored = new Map((await ctx.database.db.select().from(currencyRates)).map((row) => [row.currency, row]));
  return currencies.codes.map((currency) => {
    const row = stored.get(currency);
    const available = currency === baseCurrency || (row !== undefined && isCurrent(row.updatedAt, ctx.now));
    return { currency, eurPerUnit: currency === baseCurrency ? 1 : (row?.eurPerUnit ?? null), updatedAt: row?.updatedAt ?? null, available };
  });
}
