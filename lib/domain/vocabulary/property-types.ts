import { enumeration, type Enumeration } from "@/lib/base/i18n/labels";

export const propertyTypes = enumeration([
  ["apartment", "Apartament", "Apartment"],
  ["house", "Casă / vilă", "House / villa"],
  ["land", "Teren", "Land"],
  ["commercial", "Spațiu comercial", "Commercial space"],
  ["office", "Birouri", "Office space"],
  ["industrial", "Spațiu industrial", "Industrial space"],
  ["development", "Proiect rezidențial nou", "New development"],
]);
export type PropertyType = (typeof propertyTypes.codes)[number];

export const transactionTypes = enumeration([
  ["sale", "Vânzare", "Sale"],
  ["rent", "Închiriere", "Rent"],
]);
export type TransactionType = (typeof transactionTypes.codes)[number];

/** A development is sold off-plan or new by its developer; renting one as a whole is not a market here. */
export const transactionsByType: Readonly<Record<PropertyType, readonly TransactionType[]>> = {
  apartment: ["sale", "rent"],
  house: ["sale", "rent"],
  land: ["sale", "rent"],
  commercial: ["sale", "rent"],
  office: ["sale", "rent"],
  industrial: ["sale", "rent"],
  development: ["sale"],
};

export const subtypesByType: Readonly<Record<PropertyType, Enumeration>> = {
  apartment: enumeration([
    ["studio", "Garsonieră", "Studio"],
    ["standard", "Apartament", "Apartment"],
    ["duplex", "Duplex", "Duplex"],
    ["triplex", "Triplex", "Triplex"],
    ["penthouse", "Penthouse", "Penthouse"],
    ["loft", "Loft", "Loft"],
  ]),
  house: enumeration([
    ["house", "Casă", "House"],
    ["villa", "Vilă", "Villa"],
    ["semi_detached_house", "Casă tip duplex", "Semi-detached house"],
    ["townhouse", "Casă înșiruită", "Townhouse"],
    ["cabin", "Cabană", "Cabin"],
    ["country_house", "Casă la țară", "Country house"],
  ]),
  land: enumeration([
    ["construction", "Teren construcții", "Building land"],
    ["agricultural", "Teren agricol", "Agricultural land"],
    ["forest", "Pădure", "Forest"],
    ["orchard", "Livadă", "Orchard"],
    ["vineyard", "Vie", "Vineyard"],
    ["pasture", "Pășune / fâneață", "Pasture / hayfield"],
  ]),
  commercial: enumeration([
    ["retail", "Spațiu comercial", "Retail space"],
    ["restaurant", "Restaurant", "Restaurant"],
    ["hotel", "Hotel", "Hotel"],
    ["guesthouse", "Pensiune", "Guesthouse"],
    ["showroom", "Showroom", "Showroom"],
    ["service_space", "Spațiu pentru servicii", "Service space"],
    ["gas_station", "Benzinărie", "Petrol station"],
  ]),
  office: enumeration([
    ["office_space", "Spațiu de birouri", "Office space"],
    ["office_building", "Clădire de birouri", "Office building"],
    ["coworking", "Coworking", "Coworking"],
    ["medical_office", "Cabinet medical", "Medical office"],
  ]),
  industrial: enumeration([
    ["warehouse", "Depozit", "Warehouse"],
    ["production_hall", "Hală de producție", "Production hall"],
    ["logistics", "Spațiu logistic", "Logistics space"],
    ["workshop", "Atelier", "Workshop"],
    ["cold_storage", "Depozit frigorific", "Cold storage"],
    ["farm_building", "Fermă", "Farm building"],
  ]),
  development: enumeration([
    ["residential_complex", "Ansamblu rezidențial", "Residential complex"],
    ["apartment_building", "Bloc nou", "New apartment building"],
    ["house_complex", "Ansamblu de case", "Housing estate"],
    ["mixed_use", "Proiect mixt", "Mixed-use project"],
  ]),
};

/** Every subtype code, whatever its type: an unknown code is `enum`, another type's code is `in`. */
export const allSubtypes: ReadonlySet<string> = new Set(Object.values(subtypesByType).flatMap((subtypes) => subtypes.codes));

export interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

/**
 * Plausibility limits per type, tighter than the field bounds (`below_type_minimum`,
 * `above_type_maximum`): a 5 m² house or a 200-room apartment is a typing mistake, not a listing.
 */
export const typeLimits: Readonly<Record<PropertyType, Readonly<Record<string, Bounds>>>> = {
  apartment: {
    usable_area_sqm: { min: 10, max: 2000 },
    built_area_sqm: { min: 10, max: 3000 },
    rooms: { max: 20 },
    total_floors: { min: 1 },
    year_built: { min: 1850 },
  },
  house: {
    usable_area_sqm: { min: 20, max: 10000 },
    built_area_sqm: { min: 20, max: 15000 },
    land_area_sqm: { min: 50 },
    total_floors: { max: 6 },
    year_built: { min: 1700 },
  },
  land: {
    land_area_sqm: { min: 10 },
  },
  commercial: {
    usable_area_sqm: { min: 5 },
    year_built: { min: 1700 },
  },
  office: {
    usable_area_sqm: { min: 5 },
    year_built: { min: 1800 },
  },
  industrial: {
    usable_area_sqm: { min: 20 },
    year_built: { min: 1850 },
  },
  development: {
    land_area_sqm: { min: 100 },
    total_floors: { max: 40 },
  },
};
