import { amenities } from "./amenities";
import { currencies } from "@/lib/domain/currency/currencies";
import * as lists from "./enumerations";
import { floorLevels } from "./floor-levels";
import type { Enumeration } from "@/lib/base/i18n/labels";
import { photoRooms } from "./photo-rooms";
import { pricePeriods } from "./price-periods";
import { propertyTypes, transactionTypes } from "./property-types";
import { mediaFailureReasons } from "./media-failure-reasons";
import { rejectionCodes } from "./rejection-codes";

/**
 * Every enumeration by the name the vocabulary document and the field metadata use. Subtypes are
 * not here: they depend on the property type (`subtypesByType`).
 */
export const enumerations = {
  property_type: propertyTypes,
  transaction_type: transactionTypes,
  trade_accept: lists.tradeAccepts,
  trade_diff: lists.tradeDiffs,
  property_condition: lists.propertyConditions,
  furnished_type: lists.furnishedTypes,
  energy_certificate: lists.energyCertificates,
  energy_certificate_status: lists.energyCertificateStatuses,
  window_type: lists.windowTypes,
  roof_type: lists.roofTypes,
  access_type: lists.accessTypes,
  attic_type: lists.atticTypes,
  underground_level: lists.undergroundLevels,
  land_classification: lists.landClassifications,
  building_type: lists.buildingTypes,
  construction_status: lists.constructionStatuses,
  comfort: lists.comforts,
  orientation: lists.orientations,
  seismic_risk: lists.seismicRisks,
  road_type: lists.roadTypes,
  pedestrian_traffic: lists.pedestrianTraffics,
  material: lists.materials,
  heating_type: lists.heatingTypes,
  floor_level: floorLevels,
  partitioning: lists.partitionings,
  amenity: amenities,
  photo_room: photoRooms,
  price_period: pricePeriods,
  currency: currencies,
  rejection_code: rejectionCodes,
  media_failure_reason: mediaFailureReasons,
} satisfies Record<string, Enumeration>;

export type EnumerationName = keyof typeof enumerations;
