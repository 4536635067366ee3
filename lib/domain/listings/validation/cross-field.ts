import { currencies, eurPerUnit, priceCapEur, type CurrencyRates } from "@/lib/domain/currency/currencies";
import {
  applianceCodes,
  levelRank,
  pricePeriodsFor,
  storeyOf,
  subtypesByType,
  transactionsByType,
  typeLimits,
  writeFields,
  type ListingWriteFields,
} from "@/lib/domain/vocabulary";
import { parcelDistanceKm } from "./parcel";
import type { Kind } from "./prepare";
import type { Report } from "./report";

interface Context {
  value: ListingWriteFields;
  kind: Kind;
  rates: CurrencyRates;
  now: Date;
  report: Report;
}

const has = <T>(value: T | undefined | null): value is T => value !== undefined && value !== null;

/** The checks that compare fields with each other or with the type, each at its documented pointer. */
export function checkCrossField(context: Context): void {
  for (const check of [kindChecks, sizeChecks, priceChecks, furnishingChecks, developmentChecks]) check(context);
}

function kindChecks({ value, kind: { type, transaction }, report }: Context): void {
  if (!type) return;
  if (transaction && !transactionsByType[type].includes(transaction)) {
    report.error("/transaction", "transaction_invalid_for_type", { type, transaction });
  }
  if (has(value.subtype) && !subtypesByType[type].has(value.subtype)) {
    report.error("/subtype", "in", { values: subtypesByType[type].codes.join(", ") });
  }
  if (transaction && has(value.price_period)) {
    const allowed = pricePeriodsFor(type, transaction);
    if (!allowed.includes(value.price_period)) report.error("/price_period", "in", { values: allowed.join(", ") });
  }
  for (const [field, bounds] of Object.entries(typeLimits[type])) {
    const number = value[field as keyof ListingWriteFields];
    if (typeof number !== "number") continue;
    const unit = writeFields[field as keyof typeof writeFields].unit ?? "number";
    if (bounds.min !== undefined && number < bounds.min) report.error(`/${field}`, "below_type_minimum", { min: bounds.min, unit });
    if (bounds.max !== undefined && number > bounds.max) report.error(`/${field}`, "above_type_maximum", { max: bounds.max, unit });
  }
}

/**
 * A parcel this far from the listing's coordinates was almost always sent as [latitude, longitude]
 * instead of [longitude, latitude]; a Romanian parcel swapped lands in Arabia.
 */
const parcelReachKm = 50;

/** Storeys a duplex or triplex spans above the level given in `floor`. */
const extraStoreys: Record<string, number> = { duplex: 1, triplex: 2 };

function sizeChecks({ value, kind: { type }, report }: Context): void {
  if (has(value.floor) && has(value.total_floors)) {
    const lowest = storeyOf(value.floor);
    if (lowest !== undefined && lowest + (extraStoreys[value.subtype ?? ""] ?? 0) > value.total_floors) {
      report.error("/floor", "floor_above_total", { total_floors: value.total_floors });
    }
  }
  if (has(value.parcel) && has(value.latitude) && has(value.longitude)) {
    if (parcelDistanceKm(value.parcel, value.latitude, value.longitude) > parcelReachKm) {
      report.error("/parcel", "invalid", { reason: "parcel_far_from_location", km: parcelReachKm });
    }
  }
  if (has(value.bedrooms) && has(value.rooms) && value.bedrooms > value.rooms) {
    report.error("/bedrooms", "bedrooms_above_rooms", { rooms: value.rooms });
  }
  if (type === "house" && has(value.built_area_sqm) && has(value.land_area_sqm)) {
    // total_floors counts the storeys above the ground floor, which is a level too.
    const ceiling = value.land_area_sqm * ((value.total_floors ?? 0) + 1);
    if (value.built_area_sqm > ceiling) report.error("/built_area_sqm", "built_above_land", { max: ceiling });
  }
  if (type === "apartment" && value.subtype !== "studio" && has(value.rooms) && value.rooms > 1 && !has(value.partitioning)) {
    if (!report.hasError("partitioning")) report.error("/partitioning", "required");
  }
  if (has(value.min_nights) && has(value.max_nights) && value.max_nights < value.min_nights) {
    report.error("/max_nights", "gte", { other: "min_nights" });
  }
  if (
    has(value.surface_office_available) &&
    has(value.surface_office_minimum) &&
    value.surface_office_available < value.surface_office_minimum
  ) {
    report.error("/surface_office_available", "gte", { other: "surface_office_minimum" });
  }
}

function priceChecks({ value, rates, report }: Context): void {
  if (has(value.upfront_cost) && has(value.upfront_percent)) {
    report.error("/upfront_cost", "prohibits", { other: "upfront_percent" });
  }
  if (has(value.upfront_cost) && has(value.price) && value.upfront_cost > value.price) {
    report.error("/upfront_cost", "upfront_above_price");
  }
  const currency = value.price_currency;
  if (!has(currency)) return;
  if (!currencies.has(currency)) {
    report.error("/price_currency", "price_currency_not_offered", { currency, currencies: currencies.codes.join(", ") });
    return;
  }
  const rate = eurPerUnit(currency, rates);
  if (rate === undefined) {
    report.error("/price_currency", "price_currency_unavailable", { currency });
    return;
  }
  if (has(value.price) && value.price * rate > priceCapEur) report.error("/price", "price_above_cap", { cap: priceCapEur });
}

function furnishingChecks({ value, report }: Context): void {
  if (value.furnished === "unfurnished") {
    const appliances = (value.features ?? []).filter((code) => applianceCodes.has(code));
    if (appliances.length) report.error("/furnished", "unfurnished_with_appliances", { appliances: appliances.join(", ") });
  }
  const heating = value.heating_types ?? [];
  if (heating.includes("none") && heating.length > 1) report.error("/heating_types", "heating_none_exclusive");
}

/** Last moment of a `YYYY-Qn` quarter, in UTC. */
function endOfQuarter(quarter: string): Date {
  const [year, q] = quarter.split("-Q").map(Number);
  return new Date(Date.UTC(year, q * 3, 1) - 1);
}

function developmentChecks({ value, kind: { type }, now, report }: Context): void {
  if (type !== "development") return;
  if (has(value.delivery_quarter) && value.construction_status !== "completed" && endOfQuarter(value.delivery_quarter) < now) {
    report.error("/delivery_quarter", "delivery_in_past", { quarter: value.delivery_quarter });
  }
  if (report.hasError("unit_types")) return;
  const rows = value.unit_types ?? [];
  const complete = rows.some((row) => has(row.label) && has(row.area_sqm_from) && has(row.units_count) && has(row.price));
  if (!complete) report.error("/unit_types", "complex_needs_complete_type");
  rows.forEach((row, index) => {
    if (has(row.area_sqm_from) && has(row.area_sqm_to) && row.area_sqm_to < row.area_sqm_from) {
      report.error(`/unit_types/${index}/area_sqm_to`, "area_to_below_from", { from: row.area_sqm_from });
    }
    if (!has(row.floors)) return;
    const top = storeyOf(row.floors.to);
    const inverted = levelRank(row.floors.from) > levelRank(row.floors.to);
    const aboveBuilding = has(value.total_floors) && top !== undefined && top > value.total_floors;
    if (inverted || aboveBuilding) report.error(`/unit_types/${index}/floors`, "floor_range_invalid");
  });
}
