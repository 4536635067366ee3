import area from "@turf/area";
import booleanValid from "@turf/boolean-valid";
import { polygon } from "@turf/helpers";
import kinks from "@turf/kinks";
import type { ParcelPoint } from "@/lib/domain/vocabulary";

/** Below this a "parcel" is a point or a line drawn by mistake (about a tenth of a square metre). */
const minimumAreaSqm = 0.1;

/**
 * Whether the corners (`[longitude, latitude]`, GeoJSON order, ring open or closed) outline a real
 * polygon: at least three distinct corners, no spike or puncture (`@turf/boolean-valid`), no edge
 * crossing another (`@turf/kinks`) and a surface (not all corners on one line).
 */
export function isValidParcelRing(points: readonly ParcelPoint[]): boolean {
  if (points.length < 3) return false;
  const ring = points.map(([lng, lat]): ParcelPoint => [lng, lat]);
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0], first[1]]);
  const distinct = new Set(ring.map(([lng, lat]) => `${lng},${lat}`));
  if (distinct.size < 3 || ring.length < 4) return false;
  const outline = polygon([ring]);
  if (!booleanValid(outline)) return false;
  if (kinks(outline).features.length > 0) return false;
  return !isFlat(ring) && area(outline) >= minimumAreaSqm;
}

/**
 * All corners on one line. Geodesic area cannot tell (a straight line in degrees is not a geodesic),
 * so the planar shoelace area is compared with the outline's extent, with room for float noise.
 */
function isFlat(ring: readonly ParcelPoint[]): boolean {
  const lngs = ring.map(([lng]) => lng);
  const lats = ring.map(([, lat]) => lat);
  const extent = Math.max(Math.max(...lngs) - Math.min(...lngs), Math.max(...lats) - Math.min(...lats));
  return planarArea(ring) <= extent * extent * 1e-9;
}

/** Shoelace area, in square degrees. */
function planarArea(ring: readonly ParcelPoint[]): number {
  let twice = 0;
  for (let index = 0; index < ring.length - 1; index++) {
    const [x1, y1] = ring[index];
    const [x2, y2] = ring[index + 1];
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

const earthRadiusKm = 6371;

/** Great-circle distance in kilometres from the parcel's first corner to a point (haversine). */
export function parcelDistanceKm(points: readonly ParcelPoint[], latitude: number, longitude: number): number {
  const [lng, lat] = points[0];
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(latitude - lat);
  const dLng = radians(longitude - lng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat)) * Math.cos(radians(latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * earthRadiusKm * Math.asin(Math.sqrt(a));
}
