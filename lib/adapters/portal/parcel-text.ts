/**
 * The parcel outline in the listing form: a textarea with one corner a line, `longitude, latitude`
 * (the API's GeoJSON order), or a pasted GeoJSON Polygon (a Feature of one, or its coordinates). No
 * vocabulary import: the browser's preview uses this module too.
 */

export type Corner = [number, number];

const decimal = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A typed coordinate as a number (a decimal comma accepted when it cannot be the separator), else as typed. */
function coordinateOf(text: string): number | string {
  const dotted = text.replace(",", ".");
  return decimal.test(dotted) ? Number(dotted) : text;
}

/**
 * One line as a corner. The two numbers are split at a semicolon, else at a comma, else at spaces
 * ("44,43 26,10" with decimal commas); brackets and a trailing comma from a pasted array are
 * dropped. A line that does not make two parts is sent as typed, so the validator refuses it at its
 * own pointer (`/parcel/3`), and a part that is no number likewise (`/parcel/3/0`).
 */
function cornerOfLine(line: string): unknown {
  const bare = line.replace(/^[\s[(]+|[\s\]),]+$/g, "");
  const parts = [/\s*;\s*/, /\s*,\s*/, /\s+/].map((separator) => bare.split(separator)).find((split) => split.length === 2);
  return parts ? parts.map(coordinateOf) : line;
}

/** The outer ring of a pasted GeoJSON Polygon, a Feature holding one, or its `coordinates`; any other JSON as it is. */
function ringOfJson(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const object = value as { type?: unknown; geometry?: unknown; coordinates?: unknown };
  if (object.type === "Feature") return ringOfJson(object.geometry);
  if (object.type === "Polygon") return ringOfJson(object.coordinates);
  if (Array.isArray(value) && Array.isArray(value[0]) && Array.isArray(value[0][0])) return value[0];
  return value;
}

/**
 * The textarea's text as the write document's `parcel`: `null` when empty, else the corners (at
 * most one over `maxCorners`, enough for the validator's `max`). What does not parse is sent as
 * typed: the validator refuses it with its own code, next to the textarea.
 */
export function parcelOfText(text: string, maxCorners: number): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (/^[[{]/.test(trimmed)) {
    try {
      const ring = ringOfJson(JSON.parse(trimmed));
      return Array.isArray(ring) ? ring.slice(0, maxCorners + 1) : ring;
    } catch {
      // Not JSON after all: read it line by line like any other text.
    }
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, maxCorners + 1)
    .map(cornerOfLine);
}

const isCorner = (value: unknown): value is Corner =>
  Array.isArray(value) && value.length === 2 && value.every((number) => typeof number === "number" && Number.isFinite(number));

/** A stored parcel as the textarea shows it: one `longitude, latitude` a line. */
export function parcelText(stored: unknown): string {
  if (!Array.isArray(stored)) return "";
  return stored
    .filter(isCorner)
    .map(([longitude, latitude]) => `${longitude}, ${latitude}`)
    .join("\n");
}

/**
 * The corners of a text when every line is a corner within the coordinates' bounds and there are at
 * least three, for the preview; otherwise nothing (the validator has the last word on the shape).
 */
export function cornersOfText(text: string, maxCorners: number): Corner[] | undefined {
  const parcel = parcelOfText(text, maxCorners);
  if (!Array.isArray(parcel) || parcel.length < 3 || parcel.length > maxCorners || !parcel.every(isCorner)) return undefined;
  const inBounds = parcel.every(([longitude, latitude]) => Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90);
  return inBounds ? parcel : undefined;
}

/**
 * The corners as the `points` of an SVG polygon in a `size`-wide square with a margin: longitude
 * shrunk by the cosine of the latitude (an equirectangular view, true enough for a parcel), north up.
 */
export function outlinePoints(corners: Corner[], size: number, margin = 4): string {
  const middle = (corners.reduce((sum, [, latitude]) => sum + latitude, 0) / corners.length) * (Math.PI / 180);
  const projected = corners.map(([longitude, latitude]) => [longitude * Math.cos(middle), -latitude]);
  const xs = projected.map(([x]) => x);
  const ys = projected.map(([, y]) => y);
  const [left, top] = [Math.min(...xs), Math.min(...ys)];
  const extent = Math.max(Math.max(...xs) - left, Math.max(...ys) - top) || 1;
  const scale = (size - 2 * margin) / extent;
  return projected.map(([x, y]) => `${round(margin + (x - left) * scale)},${round(margin + (y - top) * scale)}`).join(" ");
}

const round = (value: number) => Math.round(value * 10) / 10;
