import { fromEntries, type VocabularyEntry } from "@/lib/base/i18n/labels";

const highestNumberedFloor = 60;

const numbered: VocabularyEntry[] = Array.from({ length: highestNumberedFloor }, (_, index) => {
  const floor = index + 1;
  return { code: String(floor), labels: { ro: `Etaj ${floor}`, en: `Floor ${floor}` } };
});

/** Floor level codes, lowest first. Photo level tags use the same codes. */
export const floorLevels = fromEntries<string>([
  { code: "basement", labels: { ro: "Subsol", en: "Basement" } },
  { code: "semi_basement", labels: { ro: "Demisol", en: "Semi-basement" } },
  { code: "ground", labels: { ro: "Parter", en: "Ground floor" } },
  { code: "mezzanine", labels: { ro: "Mezanin", en: "Mezzanine" } },
  ...numbered,
  { code: "attic", labels: { ro: "Mansardă", en: "Attic" } },
]);

/**
 * Storeys above the ground floor a level sits at, to compare with `total_floors` (which counts the
 * storeys above the ground floor, as the Romanian "P+4" does). The attic sits on top of whatever the
 * building has, so it never exceeds the total: `undefined`.
 */
export function storeyOf(level: string): number | undefined {
  if (level === "attic") return undefined;
  if (level === "basement" || level === "semi_basement" || level === "ground" || level === "mezzanine") return 0;
  return Number(level);
}

/** Position of a level from the bottom, to order a range of levels (`unit_types[].floors`). */
export function levelRank(level: string): number {
  return floorLevels.codes.indexOf(level);
}
