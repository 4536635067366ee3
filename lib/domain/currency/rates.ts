import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Handle } from "@/db";
import { currencyRates } from "@/db/schema";
import { withTransaction, type OperatorActor, type ServiceContext, type SystemActor } from "@/lib/base/context";
import { baseCurrency, currencies, type CurrencyRates } from "./currencies";
import { parseOrThrow } from "@/lib/base/validation/zod";

/**
 * The reference rates by currency; EUR is always 1. A rate stays in force until an operator sets a
 * new one or withdraws it (`rates:withdraw`, e.g. when the reference source stops publishing):
 * a withdrawn rate is undefined and prices in that currency are refused (`price_currency_unavailable`).
 */
export async function loadRates(db: Handle, now: Date = new Date()): Promise<CurrencyRates> {
  const rows = await db.select().from(currencyRates);
  const rates: CurrencyRates = {};
  for (const row of rows) rates[row.currency] = { eurPerUnit: row.eurPerUnit, updatedAt: row.updatedAt };
  rates[baseCurrency] = { eurPerUnit: 1, updatedAt: now };
  return rates;
}

/**
 * Listing writes read the rates on every request; they change a few times a day at most. A process
 * keeps them 5 seconds per database, and forgets them at once when it sets or withdraws one itself
 * (the operator CLI runs in the server process when embedded); other instances see a change within 5 s.
 */
const rateCacheMs = 5_000;
const rateCache = new WeakMap<object, { loadedAt: number; rates: CurrencyRates }>();

export async function cachedRates(ctx: ServiceContext): Promise<CurrencyRates> {
  const hit = rateCache.get(ctx.database);
  if (hit && ctx.now.getTime() - hit.loadedAt < rateCacheMs) return hit.rates;
  const rates = await loadRates(ctx.db, ctx.now);
  rateCache.set(ctx.database, { loadedAt: ctx.now.getTime(), rates });
  return rates;
}

const convertible = currencies.codes.filter((code) => code !== baseCurrency) as [string, ...string[]];

// The column keeps 8 decimals: a smaller rate would be stored as 0.
export const rateCurrency = z.enum(convertible);
export const eurPerUnitValue = z.number().min(0.00000001).max(1_000_000);

const setRateInput = z.object({ currency: rateCurrency, eurPerUnit: eurPerUnitValue });

/** Sets the reference rate of a currency (euros per unit) as of now. EUR is fixed at 1. */
export async function setRate({ ctx, input }: { ctx: ServiceContext<OperatorActor | SystemActor>; input: z.input<typeof setRateInput> }) {
  const { currency, eurPerUnit } = parseOrThrow(setRateInput, input);
  const [row] = await withTransaction(ctx, (tx) =>
    tx.db
      .insert(currencyRates)
      .values({ currency, eurPerUnit, updatedAt: ctx.now })
      .onConflictDoUpdate({ target: currencyRates.currency, set: { eurPerUnit, updatedAt: ctx.now } })
      .returning(),
  );
  rateCache.delete(ctx.database);
  return row;
}

/** Withdraws the reference rate of a currency: its prices are refused until a rate is set again. */
export async function withdrawRate({ ctx, input }: { ctx: ServiceContext<OperatorActor | SystemActor>; input: { currency: string } }) {
  const { currency } = parseOrThrow(z.object({ currency: rateCurrency }), input);
  const removed = await withTransaction(ctx, (tx) => tx.db.delete(currencyRates).where(eq(currencyRates.currency, currency)).returning());
  rateCache.delete(ctx.database);
  return { currency, withdrawn: removed.length > 0 };
}

/** Every offered currency with its stored rate and whether it is available. */
export async function listRates({ ctx }: { ctx: ServiceContext }) {
  const stored = new Map((await ctx.db.select().from(currencyRates)).map((row) => [row.currency, row]));
  return currencies.codes.map((currency) => {
    const row = stored.get(currency);
    const available = currency === baseCurrency || row !== undefined;
    return {
      currency,
      eurPerUnit: currency === baseCurrency ? 1 : (row?.eurPerUnit ?? null),
      updatedAt: row?.updatedAt ?? null,
      available,
    };
  });
}
