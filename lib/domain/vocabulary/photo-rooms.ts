import { enumeration } from "./labels";

/** Room labels a photo can carry (at most 3 per photo). */
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
