import { locales } from "@/lib/base/i18n";
import { apiRelease } from "@/lib/base/api-release";
import { amenityDetails, amenityGroups } from "./amenities";
import { enumerations } from "./catalog";
import { baseCurrency, currencies, eurPerUnit, priceCapEur, type CurrencyRates } from "@/lib/domain/currency/currencies";
import { writeFields, type FieldSpec } from "./fields";
import { unitTypeFields } from "./unit-type-fields";
import type { Enumeration } from "@/lib/base/i18n/labels";
import { pricePeriodDetails } from "./price-periods";
import { propertyTypes, subtypesByType, transactionTypes, transactionsByType, typeLimits } from "./property-types";
import { retiredCodes } from "./retired";

const entriesOf = (list: Enumeration) => list.entries.map(({ code, labels }) => ({ code, labels }));

/**
 * The public vocabulary (`GET /schema`): every code list with `ro` and `en` labels, the currencies
 * with their reference rates, retired codes and the metadata of each write field. Built only from
 * its inputs, in a fixed order, so hashing its JSON gives a stable ETag.
 */
export function buildSchemaDocument({ rates }: { rates: CurrencyRates }) {
  return {
    version: apiRelease,
    locales: [...locales],
    property_types: propertyTypes.entries.map(({ code, labels }) => ({
      code,
      labels,
      transactions: [...transactionsByType[code]],
      subtypes: entriesOf(subtypesByType[code]),
      limits: typeLimits[code],
    })),
    enumerations: {
      ...Object.fromEntries(Object.entries(enumerations).map(([name, list]) => [name, entriesOf(list)])),
      amenity: amenityDetails.map(({ code, labels, group, appliance }) => ({ code, labels, group, appliance })),
      amenity_group: entriesOf(amenityGroups),
      price_period: pricePeriodDetails.map(({ code, labels, transactions, types }) => ({
        code,
        labels,
        transactions: [...transactions],
        types: types ? [...types] : null,
      })),
    },
    currencies: currencies.entries.map(({ code, labels }) => {
      const rate = eurPerUnit(code, rates);
      return {
        code,
        labels,
        eur_per_unit: rate ?? null,
        rate_updated_at: code === baseCurrency ? null : (rates[code]?.updatedAt.toISOString() ?? null),
        available: rate !== undefined,
      };
    }),
    base_currency: baseCurrency,
    price_cap_eur: priceCapEur,
    retired: retiredCodes.map((retired) => ({ ...retired })),
    fields: Object.fromEntries(Object.entries(writeFields).map(([name, spec]) => [name, describeField(spec)])),
    unit_type_fields: Object.fromEntries(Object.entries(unitTypeFields).map(([name, spec]) => [name, describeField(spec, false)])),
  };
}

export type SchemaDocument = ReturnType<typeof buildSchemaDocument>;

const jsonType = {
  text: "string",
  integer: "integer",
  number: "number",
  boolean: "boolean",
  list: "array",
  parcel: "array",
  unit_types: "array",
  level_range: "object",
} as const;

/**
 * `withRules` false for unit type members: they exist wherever `unit_types` does, and their only rule
 * is `label` being required with any other member.
 */
function describeField(spec: FieldSpec, withRules = true) {
  const bounds =
    spec.kind === "integer" || spec.kind === "number"
      ? { minimum: spec.min, maximum: spec.max, exclusive_minimum: spec.exclusiveMin, decimals: spec.decimals }
      : spec.kind === "text"
        ? { min_length: spec.minLength, max_length: spec.maxLength, format: spec.format, enumeration: spec.enumeration }
        : spec.kind === "list"
          ? { max_items: spec.maxItems, item_max_length: spec.itemMaxLength, enumeration: spec.enumeration }
          : spec.kind === "parcel"
            ? { min_items: spec.minItems, max_items: spec.maxItems, items: "[longitude, latitude]" }
            : spec.kind === "unit_types"
              ? { max_items: spec.maxItems, items: "unit_type_fields" }
              : { members: { from: "floor_level", to: "floor_level" } };
  return withoutUndefined({
    type: jsonType[spec.kind],
    nullable: spec.nullable,
    labels: spec.labels,
    unit: spec.unit,
    ...bounds,
    applies_to: withRules
      ? {
          types: spec.appliesTo?.types ? [...spec.appliesTo.types] : [...propertyTypes.codes],
          transactions: spec.appliesTo?.transactions ? [...spec.appliesTo.transactions] : [...transactionTypes.codes],
        }
      : undefined,
    required: withRules ? (spec.required ?? null) : undefined,
  });
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
