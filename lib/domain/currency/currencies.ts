import { enumeration } from "@/lib/base/i18n/labels";

/** Currencies a price may be declared in (a vocabulary code list). Prices are compared in euros after conversion. */
export const currencies = enumeration([
  ["EUR", "Euro", "Euro"],
  ["RON", "Leu românesc", "Romanian leu"],
  ["USD", "Dolar american", "US dollar"],
  ["GBP", "Liră sterlină", "Pound sterling"],
]);

export const baseCurrency = "EUR";

/** Ceiling of any price once converted to euros (`price_above_cap`). */
export const priceCapEur = 250_000_000;

/**
 * Reference rates, one per currency: how many euros one unit is worth. A currency with no current rate
 * is `undefined` (`price_currency_unavailable`). The rate of EUR is always 1 whatever is passed.
 */
export type CurrencyRates = Record<string, { eurPerUnit: number; updatedAt: Date } | undefined>;

export function eurPerUnit(currency: string, rates: CurrencyRates): number | undefined {
  if (currency === baseCurrency) return 1;
  if (!currencies.has(currency)) return undefined;
  return rates[currency]?.eurPerUnit;
}

/** The amount in euros, unrounded; `undefined` when the currency is not offered or has no rate. */
export function toEur(amount: number, currency: string, rates: CurrencyRates): number | undefined {
  const rate = eurPerUnit(currency, rates);
  return rate === undefined ? undefined : amount * rate;
}
