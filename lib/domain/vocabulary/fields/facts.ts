import type { PropertyType } from "@/lib/domain/vocabulary/property-types";
import { area, boolean, choice, integer, list, number } from "./build";
import { buildings, buildingsAndProjects } from "./core";
import type { ParcelField } from "./spec";

const only = (...types: PropertyType[]) => ({ appliesTo: { types } });
const surface = (ro: string, en: string, ...types: PropertyType[]) => area(ro, en, 0, 1_000_000, only(...types));
const energy = { unit: "kwh_per_sqm_year" as const, ...only(...buildingsAndProjects) };

/** Corners as `[longitude, latitude]` pairs (GeoJSON order); the ring may be open or closed. */
const parcel: ParcelField = {
  kind: "parcel",
  labels: { ro: "Contur parcelă", en: "Parcel outline" },
  nullable: true,
  minItems: 3,
  maxItems: 500,
  ...only("land", "house", "industrial", "development"),
};

/** Type-specific facts: the write fields from `heating_types` to `openings_length`. */
export const factFields = {
  heating_types: list("Încălzire", "Heating", "heating_type", 12, { itemMaxLength: 32, ...only(...buildings) }),
  condition: choice("Stare", "Condition", "property_condition", only(...buildings)),
  furnished: choice("Mobilare", "Furnishing", "furnished_type", only("apartment", "house", "office", "commercial")),
  energy_certificate: choice("Clasă energetică", "Energy class", "energy_certificate", only(...buildingsAndProjects)),
  energy_certificate_status: choice(
    "Certificat energetic",
    "Energy certificate",
    "energy_certificate_status",
    only(...buildingsAndProjects),
  ),
  materials: list("Structură", "Structure", "material", 2, only(...buildingsAndProjects)),
  windows: choice("Tâmplărie", "Windows", "window_type", only(...buildingsAndProjects)),
  roof: choice("Acoperiș", "Roof", "roof_type", only("house", "commercial", "industrial")),
  access: choice("Acces", "Access", "access_type", only("house", "land", "commercial", "industrial")),
  attic: choice("Pod / mansardă", "Attic", "attic_type", only("house")),
  flood_risk: boolean("Risc de inundații", "Flood risk", only("house", "land", "industrial", "development")),
  underground_levels: list(
    "Niveluri subterane",
    "Underground levels",
    "underground_level",
    2,
    only("house", "office", "commercial", "industrial", "development"),
  ),
  parcel,
  land_classification: choice("Clasificare teren", "Land classification", "land_classification", only("land")),
  land_frontage: integer("Front stradal", "Street frontage", 1, 10000, {
    unit: "m",
    ...only("land", "house", "commercial", "industrial"),
  }),
  pot: number("POT", "Site coverage ratio (POT)", 0, 100, { unit: "percent", ...only("land", "development") }),
  cut: number("CUT", "Floor area ratio (CUT)", 0, 20, only("land", "development")),
  clearance_height: number("Înălțime liberă", "Clear height", 0, 100, { unit: "m", ...only("industrial", "commercial") }),
  power_capacity: integer("Putere electrică", "Power capacity", 1, 100000, { unit: "kw", ...only("industrial", "commercial") }),
  floor_load_capacity: integer("Capacitate portantă pardoseală", "Floor load capacity", 1, 100000, {
    unit: "kg_per_sqm",
    ...only("industrial"),
  }),
  dock_doors_count: integer("Uși de andocare", "Dock doors", 0, 500, only("industrial")),
  building_type: choice("Tip clădire", "Building type", "building_type", only("apartment", "office", "commercial")),
  construction_status: choice("Stadiu construcție", "Construction status", "construction_status", {
    ...only("apartment", "house", "development"),
    required: { rule: "required_if", types: ["development"] },
  }),
  comfort: choice("Confort", "Comfort class", "comfort", only("apartment")),
  orientations: list("Orientare", "Orientation", "orientation", 4, only("apartment", "house", "office", "land")),
  seismic_risk: choice("Risc seismic", "Seismic risk", "seismic_risk", only("apartment", "house", "office", "commercial")),
  road_type: choice("Tip drum", "Road type", "road_type", only("land", "commercial", "industrial")),
  pedestrian_traffic: choice("Trafic pietonal", "Pedestrian traffic", "pedestrian_traffic", only("commercial")),
  parking_spots: integer("Locuri de parcare", "Parking spots", 0, 5000, only(...buildingsAndProjects)),
  balconies: integer("Balcoane", "Balconies", 0, 20, only("apartment", "house")),
  terraces: integer("Terase", "Terraces", 0, 20, only("apartment", "house", "office", "commercial")),
  kitchens: integer("Bucătării", "Kitchens", 0, 50, only("apartment", "house", "office", "commercial")),
  garages: integer("Garaje", "Garages", 0, 50, only("apartment", "house", "industrial")),
  lifts: integer("Lifturi", "Lifts", 0, 50, only("apartment", "office", "commercial", "industrial", "development")),
  underground_floors: integer(
    "Etaje subterane",
    "Underground floors",
    0,
    10,
    only("house", "office", "commercial", "industrial", "development"),
  ),
  interior_height: number("Înălțime interioară", "Interior height", 0, 100, { unit: "m", ...only("office", "commercial", "industrial") }),
  renovated_year: integer("An renovare", "Year renovated", 1000, 2029, { unit: "year", ...only(...buildings) }),
  apartments_count: integer("Număr de apartamente", "Number of apartments", 1, 5000, only("development")),
  energy_consumption: number("Consum de energie primară", "Primary energy use", 0, 5000, energy),
  energy_renewable: number("Energie din surse regenerabile", "Renewable energy", 0, 5000, energy),
  emission_index: number("Indice emisii CO₂", "CO₂ emission index", 0, 1000, {
    ...energy,
    unit: "kg_co2_per_sqm_year",
  }),
  shopfront_width: number("Lățime vitrină", "Shopfront width", 0, 1000, { unit: "m", ...only("commercial") }),
  occupancy_rate: integer("Grad de ocupare", "Occupancy rate", 0, 100, { unit: "percent", ...only("office", "commercial", "industrial") }),
  maintenance_cost: integer("Cheltuieli de întreținere lunare", "Monthly maintenance cost", 0, 100000, {
    unit: "price_currency",
    ...only("apartment", "office", "commercial", "industrial"),
  }),
  upfront_cost: integer("Avans", "Upfront payment", 0, 1_000_000_000, {
    unit: "price_currency",
    appliesTo: { transactions: ["sale"] },
  }),
  upfront_percent: number("Avans (procent)", "Upfront payment (percent)", 0, 100, {
    unit: "percent",
    exclusiveMin: true,
    appliesTo: { transactions: ["sale"] },
  }),
  parking_surface_cost: integer("Preț loc de parcare suprateran", "Surface parking price", 0, 1_000_000, {
    unit: "price_currency",
    ...only("development"),
  }),
  parking_underground_cost: integer("Preț loc de parcare subteran", "Underground parking price", 0, 1_000_000, {
    unit: "price_currency",
    ...only("development"),
  }),
  surface_total: surface("Suprafață totală", "Total surface", ...buildings),
  surface_balconies: surface("Suprafață balcoane", "Balconies surface", "apartment", "house"),
  surface_terrace: surface("Suprafață terasă", "Terrace surface", "apartment", "house", "office", "commercial"),
  surface_yard: surface("Suprafață curte", "Yard surface", "house", "commercial", "industrial"),
  surface_office: surface("Suprafață birouri", "Office surface", "office", "industrial"),
  surface_office_available: surface("Suprafață disponibilă maximă", "Largest available surface", "office"),
  surface_office_minimum: surface("Suprafață minimă închiriabilă", "Smallest rentable surface", "office"),
  surface_production: surface("Suprafață producție", "Production surface", "industrial"),
  surface_storage: surface("Suprafață depozitare", "Storage surface", "industrial", "commercial"),
  footprint: surface("Amprentă la sol", "Footprint", "house", "commercial", "industrial"),
  street_openings: integer("Deschideri la stradă", "Street openings", 0, 20, only("commercial")),
  openings_length: number("Lungime deschideri", "Openings length", 0, undefined, { unit: "m", ...only("commercial") }),
};
