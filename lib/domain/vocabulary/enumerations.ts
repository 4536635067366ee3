import { enumeration } from "@/lib/base/i18n/labels";

export const tradeAccepts = enumeration([
  ["apartment", "Apartament", "Apartment"],
  ["house", "Casă", "House"],
  ["land", "Teren", "Land"],
  ["commercial", "Spațiu comercial", "Commercial space"],
  ["vehicle", "Autovehicul", "Vehicle"],
]);

export const tradeDiffs = enumeration([
  ["none", "Fără diferență", "No difference"],
  ["paid_by_buyer", "Diferența o plătește cumpărătorul", "Buyer pays the difference"],
  ["paid_by_seller", "Diferența o plătește vânzătorul", "Seller pays the difference"],
  ["negotiable", "Diferență negociabilă", "Difference negotiable"],
]);

export const propertyConditions = enumeration([
  ["new", "Nou", "New"],
  ["renovated", "Renovat", "Renovated"],
  ["very_good", "Foarte bună", "Very good"],
  ["good", "Bună", "Good"],
  ["needs_renovation", "Necesită renovare", "Needs renovation"],
  ["for_demolition", "Pentru demolare", "For demolition"],
]);

export const furnishedTypes = enumeration([
  ["unfurnished", "Nemobilat", "Unfurnished"],
  ["partially_furnished", "Semimobilat", "Partly furnished"],
  ["furnished", "Mobilat", "Furnished"],
  ["luxury_furnished", "Mobilat lux", "Luxury furnished"],
]);

export const energyCertificates = enumeration([
  ["A+", "A+", "A+"],
  ["A", "A", "A"],
  ["B", "B", "B"],
  ["C", "C", "C"],
  ["D", "D", "D"],
  ["E", "E", "E"],
  ["F", "F", "F"],
  ["G", "G", "G"],
]);

export const energyCertificateStatuses = enumeration([
  ["available", "Certificat disponibil", "Certificate available"],
  ["preliminary", "Certificat în curs de emitere", "Certificate being issued"],
  ["exempt", "Scutit de certificat", "Exempt from certificate"],
]);

export const windowTypes = enumeration([
  ["pvc", "Termopan PVC", "PVC double glazing"],
  ["aluminium", "Aluminiu", "Aluminium"],
  ["laminated_wood", "Lemn stratificat", "Laminated wood"],
  ["wood", "Lemn", "Wood"],
  ["steel", "Metal", "Steel"],
]);

export const roofTypes = enumeration([
  ["ceramic_tiles", "Țiglă ceramică", "Ceramic tiles"],
  ["metal_tiles", "Țiglă metalică", "Metal tiles"],
  ["bituminous_shingles", "Șindrilă bituminoasă", "Bituminous shingles"],
  ["wood_shingles", "Șindrilă de lemn", "Wood shingles"],
  ["sheet_metal", "Tablă", "Sheet metal"],
  ["flat_roof", "Acoperiș terasă", "Flat roof"],
]);

export const accessTypes = enumeration([
  ["paved_road", "Drum asfaltat", "Paved road"],
  ["concrete_road", "Drum betonat", "Concrete road"],
  ["gravel_road", "Drum pietruit", "Gravel road"],
  ["dirt_road", "Drum de pământ", "Dirt road"],
  ["easement", "Servitute de trecere", "Right of way"],
  ["none", "Fără acces", "No access"],
]);

export const atticTypes = enumeration([
  ["none", "Fără pod", "No attic"],
  ["storage_loft", "Pod", "Storage loft"],
  ["convertible_attic", "Pod mansardabil", "Convertible attic"],
  ["habitable_attic", "Mansardă locuibilă", "Habitable attic"],
]);

export const undergroundLevels = enumeration([
  ["basement", "Subsol", "Basement"],
  ["semi_basement", "Demisol", "Semi-basement"],
  ["cellar", "Pivniță", "Cellar"],
  ["underground_garage", "Parcare subterană", "Underground garage"],
]);

export const landClassifications = enumeration([
  ["intravilan", "Intravilan", "Inside the built-up area (intravilan)"],
  ["extravilan", "Extravilan", "Outside the built-up area (extravilan)"],
]);

export const buildingTypes = enumeration([
  ["apartment_block", "Bloc de apartamente", "Apartment block"],
  ["villa", "Vilă", "Villa"],
  ["house", "Casă", "House"],
  ["office_building", "Clădire de birouri", "Office building"],
  ["mixed_use", "Clădire mixtă", "Mixed-use building"],
  ["shopping_center", "Centru comercial", "Shopping centre"],
  ["industrial_building", "Clădire industrială", "Industrial building"],
  ["historic_building", "Clădire istorică", "Historic building"],
]);

export const constructionStatuses = enumeration([
  ["completed", "Finalizată", "Completed"],
  ["under_construction", "În construcție", "Under construction"],
  ["shell", "La roșu", "Shell (structure only)"],
  ["grey_frame", "La gri", "Grey frame"],
  ["off_plan", "În proiect", "Off-plan"],
]);

export const comforts = enumeration([
  ["luxury", "Lux", "Luxury"],
  ["comfort_1", "Confort 1", "Comfort class 1"],
  ["comfort_2", "Confort 2", "Comfort class 2"],
  ["comfort_3", "Confort 3", "Comfort class 3"],
]);

export const orientations = enumeration([
  ["north", "Nord", "North"],
  ["north_east", "Nord-est", "North-east"],
  ["east", "Est", "East"],
  ["south_east", "Sud-est", "South-east"],
  ["south", "Sud", "South"],
  ["south_west", "Sud-vest", "South-west"],
  ["west", "Vest", "West"],
  ["north_west", "Nord-vest", "North-west"],
]);

/** Romanian seismic risk classes (RsI is the "red dot" class). */
export const seismicRisks = enumeration([
  ["rs1", "Clasa Rs I (bulină roșie)", "Class Rs I (highest risk)"],
  ["rs2", "Clasa Rs II", "Class Rs II"],
  ["rs3", "Clasa Rs III", "Class Rs III"],
  ["rs4", "Clasa Rs IV", "Class Rs IV (lowest risk)"],
  ["not_assessed", "Neexpertizat", "Not assessed"],
]);

export const roadTypes = enumeration([
  ["motorway", "Autostradă", "Motorway"],
  ["national_road", "Drum național", "National road"],
  ["county_road", "Drum județean", "County road"],
  ["communal_road", "Drum comunal", "Communal road"],
  ["urban_street", "Stradă urbană", "Urban street"],
  ["private_road", "Drum privat", "Private road"],
]);

export const pedestrianTraffics = enumeration([
  ["low", "Redus", "Low"],
  ["medium", "Mediu", "Medium"],
  ["high", "Ridicat", "High"],
  ["very_high", "Foarte ridicat", "Very high"],
]);

export const materials = enumeration([
  ["concrete", "Beton", "Concrete"],
  ["brick", "Cărămidă", "Brick"],
  ["aerated_concrete", "BCA", "Aerated concrete"],
  ["prefab_panels", "Panouri prefabricate", "Prefabricated panels"],
  ["wood", "Lemn", "Wood"],
  ["steel", "Structură metalică", "Steel frame"],
  ["stone", "Piatră", "Stone"],
  ["adobe", "Chirpici", "Adobe"],
]);

/** `none` is exclusive: combined with any source it is `heating_none_exclusive`. */
export const heatingTypes = enumeration([
  ["none", "Fără încălzire", "No heating"],
  ["district_heating", "Termoficare", "District heating"],
  ["gas_boiler", "Centrală proprie pe gaz", "Own gas boiler"],
  ["building_boiler", "Centrală de bloc", "Building boiler"],
  ["electric_heating", "Încălzire electrică", "Electric heating"],
  ["heat_pump", "Pompă de căldură", "Heat pump"],
  ["solid_fuel_boiler", "Centrală pe lemne / peleți", "Wood / pellet boiler"],
  ["wood_stove", "Sobă", "Stove"],
  ["fireplace", "Șemineu", "Fireplace"],
  ["air_conditioning", "Aer condiționat", "Air conditioning"],
  ["underfloor_heating", "Încălzire în pardoseală", "Underfloor heating"],
  ["solar_thermal", "Panouri solare termice", "Solar thermal panels"],
]);

/** Romanian apartment layouts: decomandat, semidecomandat, nedecomandat, circular. */
export const partitionings = enumeration([
  ["detached", "Decomandat", "Detached rooms"],
  ["semi_detached", "Semidecomandat", "Semi-detached rooms"],
  ["non_detached", "Nedecomandat", "Connecting rooms"],
  ["circular", "Circular", "Circular layout"],
]);
