import type { Locale } from "@/lib/base/i18n";
import { floorLevels } from "./floor-levels";
import { enumeration, labelOf } from "@/lib/base/i18n/labels";

/**
 * Rooms the portal offers for a photo's labels (at most 3 per photo). A suggestion, not a rule:
 * a photo's labels are free text, and one equal to a code here is shown with its label.
 */
export const photoRooms = enumeration([
  ["living_room", "Living", "Living room"],
  ["bedroom", "Dormitor", "Bedroom"],
  ["kitchen", "Bucătărie", "Kitchen"],
  ["bathroom", "Baie", "Bathroom"],
  ["dining_room", "Sufragerie", "Dining room"],
  ["hallway", "Hol", "Hallway"],
  ["balcony", "Balcon", "Balcony"],
  ["terrace", "Terasă", "Terrace"],
  ["study", "Birou", "Study"],
  ["storage", "Debara / boxă", "Storage"],
  ["garage", "Garaj", "Garage"],
  ["garden", "Grădină", "Garden"],
  ["yard", "Curte", "Yard"],
  ["facade", "Fațadă", "Facade"],
  ["view", "Priveliște", "View"],
  ["floor_plan", "Plan / schiță", "Floor plan"],
  ["building", "Clădire", "Building"],
  ["entrance", "Intrare", "Entrance"],
  ["pool", "Piscină", "Pool"],
  ["land_plot", "Teren", "Plot"],
  ["shop_floor", "Spațiu de vânzare", "Shop floor"],
  ["warehouse_area", "Zonă de depozitare", "Warehouse area"],
  ["meeting_room", "Sală de ședință", "Meeting room"],
  ["other", "Altele", "Other"],
]);

/** A photo's tags as a page shows them: its level's label, then each room label, a known code in the page's language, any other as written. */
export function photoTagLabels(photo: { floor: string | null; rooms: readonly string[] }, locale: Locale): string[] {
  return [
    ...(photo.floor ? [labelOf(floorLevels, photo.floor, locale)] : []),
    ...photo.rooms.map((room) => labelOf(photoRooms, room, locale)),
  ];
}
