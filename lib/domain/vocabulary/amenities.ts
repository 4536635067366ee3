import { enumeration, fromEntries, type Labels, type VocabularyEntry } from "@/lib/base/i18n/labels";

export const amenityGroups = enumeration([
  ["appliances", "Electrocasnice", "Appliances"],
  ["utilities", "Utilități", "Utilities"],
  ["comfort", "Confort", "Comfort"],
  ["security", "Siguranță", "Security"],
  ["building", "Clădire", "Building"],
  ["outdoor", "Exterior", "Outdoor"],
  ["business", "Spații de afaceri", "Business premises"],
]);
type AmenityGroup = (typeof amenityGroups.codes)[number];

export interface Amenity extends VocabularyEntry {
  readonly group: AmenityGroup;
  /** Appliances contradict a listing declared `unfurnished` (`unfurnished_with_appliances`). */
  readonly appliance: boolean;
}

const rows: readonly (readonly [string, AmenityGroup, string, string])[] = [
  ["washing_machine", "appliances", "Mașină de spălat rufe", "Washing machine"],
  ["dishwasher", "appliances", "Mașină de spălat vase", "Dishwasher"],
  ["fridge", "appliances", "Frigider", "Fridge"],
  ["cooker", "appliances", "Aragaz", "Cooker"],
  ["oven", "appliances", "Cuptor", "Oven"],
  ["microwave", "appliances", "Cuptor cu microunde", "Microwave"],
  ["tumble_dryer", "appliances", "Uscător de rufe", "Tumble dryer"],
  ["tv", "appliances", "Televizor", "TV set"],
  ["electricity", "utilities", "Curent electric", "Electricity"],
  ["water", "utilities", "Apă curentă", "Running water"],
  ["sewerage", "utilities", "Canalizare", "Sewerage"],
  ["gas", "utilities", "Gaz", "Gas"],
  ["septic_tank", "utilities", "Fosă septică", "Septic tank"],
  ["water_well", "utilities", "Fântână / puț", "Water well"],
  ["internet", "utilities", "Internet", "Internet"],
  ["cable_tv", "utilities", "Cablu TV", "Cable TV"],
  ["three_phase_power", "utilities", "Curent trifazic", "Three-phase power"],
  ["air_conditioning", "comfort", "Aer condiționat", "Air conditioning"],
  ["storage_room", "comfort", "Boxă", "Storage room"],
  ["pantry", "comfort", "Cămară", "Pantry"],
  ["walk_in_closet", "comfort", "Dressing", "Walk-in closet"],
  ["jacuzzi", "comfort", "Jacuzzi", "Jacuzzi"],
  ["sauna", "comfort", "Saună", "Sauna"],
  ["smart_home", "comfort", "Casă inteligentă", "Smart home"],
  ["solar_panels", "comfort", "Panouri fotovoltaice", "Solar panels"],
  ["pet_friendly", "comfort", "Animale acceptate", "Pets allowed"],
  ["intercom", "security", "Interfon", "Intercom"],
  ["video_intercom", "security", "Videointerfon", "Video intercom"],
  ["alarm", "security", "Sistem de alarmă", "Alarm system"],
  ["video_surveillance", "security", "Supraveghere video", "Video surveillance"],
  ["security_guard", "security", "Pază", "Security guard"],
  ["gated_community", "security", "Complex închis", "Gated community"],
  ["fire_protection", "security", "Sistem antiincendiu", "Fire protection system"],
  ["elevator", "building", "Lift", "Elevator"],
  ["wheelchair_access", "building", "Acces persoane cu dizabilități", "Wheelchair access"],
  ["bicycle_storage", "building", "Parcare biciclete", "Bicycle storage"],
  ["ev_charging", "building", "Încărcare mașini electrice", "EV charging"],
  ["concierge", "building", "Recepție / concierge", "Concierge"],
  ["swimming_pool", "outdoor", "Piscină", "Swimming pool"],
  ["garden", "outdoor", "Grădină", "Garden"],
  ["barbecue", "outdoor", "Grătar", "Barbecue"],
  ["playground", "outdoor", "Loc de joacă", "Playground"],
  ["fenced", "outdoor", "Împrejmuit", "Fenced"],
  ["gym", "building", "Sală de fitness", "Gym"],
  ["meeting_rooms", "business", "Săli de ședință", "Meeting rooms"],
  ["raised_floor", "business", "Pardoseală tehnică", "Raised floor"],
  ["kitchenette", "business", "Chicinetă", "Kitchenette"],
  ["loading_ramp", "business", "Rampă de încărcare", "Loading ramp"],
  ["sprinklers", "business", "Sprinklere", "Sprinklers"],
  ["shop_window", "business", "Vitrină", "Shop window"],
];

export const amenities = fromEntries<string>(rows.map(([code, , ro, en]) => ({ code, labels: { ro, en } as Labels })));

export const amenityDetails: readonly Amenity[] = rows.map(([code, group, ro, en]) => ({
  code,
  group,
  appliance: group === "appliances",
  labels: { ro, en },
}));

export const applianceCodes: ReadonlySet<string> = new Set(
  amenityDetails.filter((amenity) => amenity.appliance).map((amenity) => amenity.code),
);
