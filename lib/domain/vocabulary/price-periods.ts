import { fromEntries, type Labels } from "@/lib/base/i18n/labels";
import type { PropertyType, TransactionType } from "./property-types";

export interface PricePeriod {
  readonly code: string;
  readonly labels: Labels;
  readonly transactions: readonly TransactionType[];
  /** Types the period fits; absent: every type. */
  readonly types?: readonly PropertyType[];
}

const businessTypes: readonly PropertyType[] = ["commercial", "office", "industrial", "land"];

/** What `price` is counted per. `total` is the whole price; the default of a sale. */
export const pricePeriodDetails: readonly PricePeriod[] = [
  { code: "total", labels: { ro: "Preț total", en: "Total price" }, transactions: ["sale"] },
  { code: "sqm", labels: { ro: "Pe m²", en: "Per m²" }, transactions: ["sale"], types: businessTypes },
  { code: "month", labels: { ro: "Pe lună", en: "Per month" }, transactions: ["rent"] },
  { code: "year", labels: { ro: "Pe an", en: "Per year" }, transactions: ["rent"], types: ["land", "commercial", "industrial"] },
  { code: "night", labels: { ro: "Pe noapte", en: "Per night" }, transactions: ["rent"], types: ["apartment", "house"] },
  { code: "sqm_month", labels: { ro: "Pe m² pe lună", en: "Per m² per month" }, transactions: ["rent"], types: businessTypes },
];

export const pricePeriods = fromEntries<string>(pricePeriodDetails);

export function pricePeriodsFor(type: PropertyType, transaction: TransactionType): string[] {
  return pricePeriodDetails
    .filter((period) => period.transactions.includes(transaction) && (!period.types || period.types.includes(type)))
    .map((period) => period.code);
}

export const defaultPricePeriod: Readonly<Record<TransactionType, string>> = { sale: "total", rent: "month" };
