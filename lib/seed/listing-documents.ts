import type { ListingStatus } from "@/db/schema";
import type { rejectionCodes } from "@/lib/listings/moderation";
import type { SeededAccounts } from "./accounts";

export type ListingSeller = Exclude<keyof SeededAccounts, "moderator">;

/** One sandbox listing: whose it is, the state it ends in, and what brings it there. */
export type SeedListing = {
  seller: ListingSeller;
  document: Record<string, unknown>;
  /** An open report from a visitor, which blocks the listing's deletion. */
  report?: { reason: string; reporterEmail: string };
  /** An edit of the published listing left waiting for moderation (`moderation.edit_pending`). */
  pendingEdit?: Record<string, unknown>;
} & (
  | { status: Exclude<ListingStatus, "rejected"> }
  | { status: "rejected"; rejection: { reason: string; rejection_codes: (typeof rejectionCodes)[number][] } }
);

/**
 * Sandbox listings: every state for the demo account, a few for each agency member, every property
 * type, some with an `external_ref`. Prices are in euros, whose rate never goes stale; dates are
 * relative to `now` so the documents stay valid whenever the sandbox is seeded.
 */
export function sandboxListings(now: Date): SeedListing[] {
  const deliveryQuarter = `${now.getUTCFullYear() + 1}-Q4`;
  const availableFrom = new Date(now.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
  return [
    {
      seller: "demo",
      status: "draft",
      document: {
        type: "apartment", transaction: "rent", subtype: "studio",
        title: "Garsonieră modernă în Mărăști, Cluj-Napoca",
        description: "Garsonieră mobilată și utilată complet, bloc nou, aproape de Iulius Mall și de stația de autobuz.",
        content_locale: "ro", city: "Cluj-Napoca", county: "Cluj", area: "Mărăști",
        street: "Strada Aurel Vlaicu", street_number: "41", latitude: 46.7786, longitude: 23.6136,
        rooms: 1, floor: "3", total_floors: 6, usable_area_sqm: 34, year_built: 2019,
        price: 420, price_currency: "EUR", deposit_months: 2, utilities_included: false, available_from: availableFrom,
      },
    },
    {
      seller: "demo",
      status: "pending",
      document: {
        type: "house", transaction: "sale", subtype: "villa",
        title: "Vilă P+1 cu grădină și garaj dublu în Otopeni",
        description: "Vilă nouă cu cinci camere, grădină amenajată, garaj dublu și pompă de căldură, la 10 minute de aeroport.",
        content_locale: "ro", city: "Otopeni", county: "Ilfov", street: "Strada Zborului", street_number: "7",
        latitude: 44.549, longitude: 26.07, rooms: 5, bedrooms: 3, bathrooms: 3, total_floors: 1,
        usable_area_sqm: 180, built_area_sqm: 220, land_area_sqm: 500, year_built: 2021,
        price: 245000, price_currency: "EUR", heating_types: ["heat_pump", "underfloor_heating"],
        roof: "ceramic_tiles", attic: "habitable_attic", garages: 2, construction_status: "completed",
      },
    },
    {
      seller: "demo",
      status: "active",
      document: {
        type: "apartment", transaction: "sale", subtype: "standard", external_ref: "DEMO-APT-001",
        title: "Apartament 3 camere Floreasca, renovat",
        description: "Apartament luminos cu trei camere, renovat complet, la cinci minute de metrou și de parcul Floreasca.",
        content_locale: "ro", city: "București", county: "București", area: "Floreasca",
        street: "Strada Barbu Văcărescu", street_number: "12", latitude: 44.4612, longitude: 26.1003,
        rooms: 3, bedrooms: 2, bathrooms: 2, floor: "4", total_floors: 10, usable_area_sqm: 78.5, built_area_sqm: 92.25,
        year_built: 2008, partitioning: "detached", price: 185000, price_currency: "EUR", upfront_cost: 20000,
        heating_types: ["gas_boiler"], furnished: "furnished", features: ["fridge", "washing_machine", "air_conditioning"],
        orientations: ["south", "east"], energy_certificate: "B", energy_certificate_status: "available", comfort: "comfort_1",
      },
      report: { reason: "Același apartament apare de două ori, cu prețuri diferite.", reporterEmail: "vizitator@example.com" },
    },
    {
      seller: "demo",
      status: "active",
      document: {
        type: "apartment", transaction: "rent", subtype: "standard", external_ref: "DEMO-APT-002",
        title: "Apartament 2 camere în regim hotelier, Brașov",
        description: "Apartament cu două camere pentru sejururi scurte, lângă Piața Sfatului, check-in flexibil și parcare.",
        content_locale: "ro", city: "Brașov", county: "Brașov", area: "Centrul Istoric",
        street: "Strada Republicii", street_number: "25", latitude: 45.6427, longitude: 25.5887,
        rooms: 2, partitioning: "semi_detached", floor: "2", usable_area_sqm: 55,
        price: 75, price_currency: "EUR", price_period: "night", min_nights: 2, max_nights: 30,
      },
    },
    {
      seller: "demo",
      status: "rejected",
      document: {
        type: "land", transaction: "sale", subtype: "construction",
        title: "Teren intravilan 1200 mp, Corbeanca",
        description: "Teren plan pentru casă, deschidere de 20 m la drum asfaltat, utilități la limita proprietății.",
        content_locale: "ro", city: "Corbeanca", county: "Ilfov", street: "Strada Libertății",
        latitude: 44.6003, longitude: 26.0502, land_area_sqm: 1200, land_classification: "intravilan",
        land_frontage: 20, access: "paved_road", road_type: "communal_road", pot: 35, cut: 0.9,
        parcel: [[26.0501, 44.6001], [26.0504, 44.6001], [26.0504, 44.6004], [26.0501, 44.6004]],
        price: 9600, price_currency: "EUR", features: ["electricity", "water", "gas"],
      },
      rejection: { reason: "Prețul pare greșit pentru 1200 mp în Corbeanca (lipsește o cifră?).", rejection_codes: ["misleading_price"] },
    },
    {
      seller: "demo",
      status: "paused",
      document: {
        type: "commercial", transaction: "rent", subtype: "retail",
        title: "Spațiu comercial stradal în Piața Victoriei, Timișoara",
        description: "Spațiu comercial la parter cu vitrină generoasă, trafic pietonal foarte ridicat, potrivit pentru retail.",
        content_locale: "ro", city: "Timișoara", county: "Timiș", area: "Centru", street: "Bulevardul Revoluției din 1989",
        street_number: "3", latitude: 45.7537, longitude: 21.2257, floor: "ground", usable_area_sqm: 120,
        price: 2500, price_currency: "EUR", pedestrian_traffic: "very_high", shopfront_width: 8.5, street_openings: 2, openings_length: 9,
      },
    },
    {
      seller: "demo",
      status: "hidden",
      document: {
        type: "office", transaction: "rent", subtype: "office_space",
        title: "Birouri open space în Copou, Iași",
        description: "Spații de birouri open space cu recepție, două săli de ședință și parcare în curte, lângă universitate.",
        content_locale: "ro", city: "Iași", county: "Iași", area: "Copou", street: "Bulevardul Carol I", street_number: "11",
        latitude: 47.1735, longitude: 27.5717, usable_area_sqm: 300, price: 12, price_currency: "EUR", price_period: "sqm_month",
        surface_office_available: 300, surface_office_minimum: 150,
      },
    },
    {
      seller: "demo",
      status: "unconfirmed",
      document: {
        type: "apartment", transaction: "rent", subtype: "standard", external_ref: "DEMO-APT-003",
        title: "Apartament 2 camere cu vedere la mare, Mamaia",
        description: "Apartament mobilat cu două camere și terasă spre mare, în complex cu piscină, închiriere pe termen lung.",
        content_locale: "ro", city: "Constanța", county: "Constanța", area: "Mamaia", street: "Bulevardul Mamaia",
        street_number: "290", latitude: 44.246, longitude: 28.619, rooms: 2, bedrooms: 1, floor: "5", total_floors: 9,
        partitioning: "detached", usable_area_sqm: 62, price: 600, price_currency: "EUR", deposit_months: 1, furnished: "furnished",
      },
    },
    {
      seller: "demo",
      status: "sold",
      document: {
        type: "industrial", transaction: "sale", subtype: "warehouse",
        title: "Hală depozitare 2000 mp lângă autostrada A1",
        description: "Hală cu înălțime liberă de 10 m, patru rampe de încărcare și curte betonată, acces direct din centură.",
        content_locale: "ro", city: "Chiajna", county: "Ilfov", street: "Strada Industriilor", street_number: "4",
        latitude: 44.459, longitude: 25.972, usable_area_sqm: 2000, land_area_sqm: 5000, clearance_height: 10,
        dock_doors_count: 4, power_capacity: 250, price: 1_450_000, price_currency: "EUR",
      },
    },
    {
      seller: "agencyOwner",
      status: "active",
      document: {
        type: "development", transaction: "sale", subtype: "residential_complex", external_ref: "DI-2001",
        title: "Ansamblu rezidențial nou în Sectorul 3",
        description: "Ansamblu de trei blocuri cu apartamente de două și trei camere, parc interior și locuri de parcare subterane.",
        content_locale: "ro", city: "București", county: "București", area: "Titan", street: "Strada Liviu Rebreanu",
        street_number: "46", latitude: 44.4215, longitude: 26.1715, construction_status: "under_construction",
        delivery_quarter: deliveryQuarter, total_floors: 8, apartments_count: 120, price_currency: "EUR",
        unit_types: [
          { label: "2 camere", rooms: 2, area_sqm_from: 55, area_sqm_to: 65.5, floors: { from: "1", to: "8" }, units_count: 80, price: 95000 },
          { label: "3 camere", rooms: 3, area_sqm_from: 78, area_sqm_to: 86, units_count: 40, price: 132000 },
        ],
      },
    },
    {
      seller: "agencyOwner",
      status: "sold",
      document: {
        type: "house", transaction: "sale", subtype: "villa", external_ref: "DI-2002",
        title: "Casă cu 4 camere și livadă în Cisnădie",
        description: "Casă renovată cu patru camere, livadă cu pomi fructiferi și vedere spre munte, la 15 minute de Sibiu.",
        content_locale: "ro", city: "Cisnădie", county: "Sibiu", street: "Strada Cetății", street_number: "18",
        latitude: 45.7126, longitude: 24.1496, rooms: 4, bedrooms: 3, bathrooms: 2, total_floors: 1,
        usable_area_sqm: 140, built_area_sqm: 165, land_area_sqm: 900, year_built: 1998, price: 168000, price_currency: "EUR",
      },
    },
    {
      seller: "agencyAdmin",
      status: "pending",
      document: {
        type: "office", transaction: "rent", subtype: "office_space", external_ref: "DI-3001",
        title: "Birouri clasa A în Pipera, lângă metrou",
        description: "Spații de birouri clasa A cu recepție, parcare subterană și săli de ședință, la trei minute de metrou.",
        content_locale: "ro", city: "Voluntari", county: "Ilfov", area: "Pipera", street: "Bulevardul Pipera", street_number: "1B",
        latitude: 44.486, longitude: 26.123, usable_area_sqm: 450, price: 14, price_currency: "EUR", price_period: "sqm_month",
        surface_office_available: 450, surface_office_minimum: 200,
      },
    },
    {
      seller: "agencyAdmin",
      status: "active",
      document: {
        type: "apartment", transaction: "sale", subtype: "standard",
        title: "Apartament 2 camere în centrul Sibiului",
        description: "Apartament cu două camere într-o clădire istorică renovată, la doi pași de Piața Mare, tavane înalte.",
        content_locale: "ro", city: "Sibiu", county: "Sibiu", area: "Centru", street: "Strada Nicolae Bălcescu", street_number: "9",
        latitude: 45.7955, longitude: 24.1515, rooms: 2, bedrooms: 1, floor: "1", total_floors: 2, partitioning: "detached",
        usable_area_sqm: 58, price: 112000, price_currency: "EUR",
      },
    },
    {
      seller: "agencyAgent",
      status: "active",
      document: {
        type: "apartment", transaction: "sale", subtype: "standard", external_ref: "DI-4001",
        title: "Apartament 4 camere decomandat în Drumul Taberei",
        description: "Apartament cu patru camere decomandat, două băi, balcon închis, aproape de parcul Moghioroș și de metrou.",
        content_locale: "ro", city: "București", county: "București", area: "Drumul Taberei", street: "Strada Brașov",
        street_number: "21", latitude: 44.4219, longitude: 26.0342, rooms: 4, bedrooms: 3, bathrooms: 2, floor: "6",
        total_floors: 10, partitioning: "detached", usable_area_sqm: 92, price: 168000, price_currency: "EUR",
      },
      pendingEdit: { price: 159000, negotiable: true },
    },
    {
      seller: "agencyAgent",
      status: "draft",
      document: {
        type: "commercial", transaction: "sale", subtype: "retail",
        title: "Spațiu comercial la parter de bloc în Florești",
        description: "Spațiu comercial cu intrare separată din stradă, vitrină mare, potrivit pentru farmacie sau cafenea.",
        content_locale: "ro", city: "Florești", county: "Cluj", street: "Strada Eroilor", street_number: "150",
        latitude: 46.7469, longitude: 23.4925, floor: "ground", usable_area_sqm: 85, price: 145000, price_currency: "EUR",
      },
    },
  ];
}
