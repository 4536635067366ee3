import type { Unit } from "@/lib/base/i18n/keys";
import type { EnumerationName } from "@/lib/domain/vocabulary/catalog";
import type { Labels } from "@/lib/base/i18n/labels";
import type { PropertyType, TransactionType } from "@/lib/domain/vocabulary/property-types";

/** Where a field exists; a member left out means every type (or transaction). */
export interface Applicability {
  readonly types?: readonly PropertyType[];
  readonly transactions?: readonly TransactionType[];
}

/**
 * When a field must have a value: always (`required`), for some types (`required_if`), or for every
 * type but some (`required_unless`).
 */
export type Requirement =
  | { readonly rule: "required" }
  | { readonly rule: "required_if"; readonly types: readonly PropertyType[] }
  | { readonly rule: "required_unless"; readonly types: readonly PropertyType[] };

/** Checks of a text beyond its length, each with its own validation code. */
export type TextFormat =
  | "meaningful_text"
  | "iso_country"
  | "phone"
  | "floor_level"
  | "date"
  | "quarter"
  | "https_url"
  | "subtype"
  | "external_ref"
  | "language"
  | "currency";

interface Common {
  readonly labels: Labels;
  readonly nullable: boolean;
  readonly appliesTo?: Applicability;
  readonly required?: Requirement;
  /**
   * Unit of a measure (`sqm`, `m`, `percent`...), `year` for a calendar year, or `price_currency` for money in the
   * listing's currency; validation details render bounds in it ("at least 1 m²").
   */
  readonly unit?: Unit;
}

export interface TextField extends Common {
  readonly kind: "text";
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: TextFormat;
  readonly enumeration?: EnumerationName;
}

export interface NumberField extends Common {
  readonly kind: "integer" | "number";
  readonly min?: number;
  readonly max?: number;
  /** The value must exceed `min` instead of reaching it (`gt`). */
  readonly exclusiveMin?: boolean;
  readonly decimals?: number;
}

export interface BooleanField extends Common {
  readonly kind: "boolean";
}

export interface ListField extends Common {
  readonly kind: "list";
  readonly maxItems: number;
  /** Items outside it are refused (`enum`), except amenities, which are dropped with a warning. */
  readonly enumeration: EnumerationName;
  readonly itemMaxLength?: number;
}

export interface ParcelField extends Common {
  readonly kind: "parcel";
  readonly minItems: number;
  readonly maxItems: number;
}

export interface UnitTypesField extends Common {
  readonly kind: "unit_types";
  readonly maxItems: number;
}

/** A range of floor level codes, `{ from, to }`, lowest first. */
export interface LevelRangeField extends Common {
  readonly kind: "level_range";
}

export type FieldSpec = TextField | NumberField | BooleanField | ListField | ParcelField | UnitTypesField | LevelRangeField;

export interface LevelRange {
  from: string;
  to: string;
}

/** A development's unit type row (`unit_types[]`). */
export interface UnitTypeRow {
  label?: string | null;
  rooms?: number | null;
  area_sqm_from?: number | null;
  area_sqm_to?: number | null;
  floors?: LevelRange | null;
  units_count?: number | null;
  price?: number | null;
}

/** A parcel corner: `[longitude, latitude]`, the GeoJSON order. */
export type ParcelPoint = [number, number];

export type FieldValue<S extends FieldSpec> = S extends TextField
  ? string
  : S extends NumberField
    ? number
    : S extends BooleanField
      ? boolean
      : S extends ListField
        ? string[]
        : S extends ParcelField
          ? ParcelPoint[]
          : S extends LevelRangeField
            ? LevelRange
            : UnitTypeRow[];
