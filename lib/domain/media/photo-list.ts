import { z } from "zod";
import { floorLevels } from "@/lib/domain/vocabulary/floor-levels";
import { unstorableReason } from "@/lib/domain/listings/validation/text";
import { ValidationError, type FieldError } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { checkUrlForm } from "@/lib/infra/net/public-address";
import { maxPhotosPerListing, maxPhotoUrlLength, maxRoomLabelLength, maxRoomsPerPhoto } from "./limits";

/** One photo of a list, checked: a URL or an upload key, with its level tag and room labels. */
export type PhotoItem = ({ url: string; key?: undefined } | { key: string; url?: undefined }) & { floor: string | null; rooms: string[] };

/** The body of `PUT /listings/{code}/photos`, for the OpenAPI document; `readPhotoList` checks it (its codes need more than zod). */
export const photoListSchema = z
  .object({
    photos: z
      .array(
        z
          .object({
            url: z
              .string()
              .max(maxPhotoUrlLength)
              .optional()
              .meta({
                format: "uri",
                description: `HTTPS address to download, at most ${maxPhotoUrlLength} characters. Required without \`key\`.`,
              }),
            key: z
              .string()
              .optional()
              .meta({ description: "An upload key of the caller from `POST /uploads`, its file sent. Required without `url`." }),
            floor: z.string().optional().meta({ description: "Level tag: a floor level code (`floor_level` in `GET /schema`)." }),
            rooms: z
              .array(z.string().trim().min(1).max(maxRoomLabelLength))
              .max(maxRoomsPerPhoto)
              .optional()
              .meta({
                description: `Room labels, free text of 1–${maxRoomLabelLength} characters after trimming, stored as sent (trimmed); at most ${maxRoomsPerPhoto}, each once. A label equal to a \`photo_room\` code of \`GET /schema\` is shown with that code's label in the page's language; any other is shown as written.`,
              }),
          })
          .meta({ id: "PhotoItem" }),
      )
      .max(maxPhotosPerListing)
      .meta({
        description: `The complete list in order, the first photo the cover; at most ${maxPhotosPerListing}. Photos of the listing missing from it are deleted.`,
      }),
  })
  .meta({ id: "PhotoList" });

const uploadKeyPattern = idPattern("upload");
// PostgreSQL text holds no U+0000 and the other control characters have no place in an address.
const controlCharacter = /[\u0000-\u001F\u007F-\u009F]/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks the body's form and the vocabulary, without the database: every error at its pointer
 * (`present` for a missing `photos`, `required_without` for a photo with neither `url` nor
 * `key`, `url` for an address that is not https, `invalid_value` for an unknown level). Rooms are
 * free labels, not codes: any text, `min`/`max` on its trimmed length, `distinct`.
 * Whose upload keys they are is checked by the service, which reads them.
 */
export function readPhotoList(body: unknown): PhotoItem[] {
  const errors: FieldError[] = [];
  if (!isObject(body) || !("photos" in body) || body.photos === undefined || body.photos === null) {
    throw new ValidationError([{ pointer: "/photos", code: "present" }]);
  }
  const list = body.photos;
  if (!Array.isArray(list)) throw new ValidationError([{ pointer: "/photos", code: "array" }]);
  if (list.length > maxPhotosPerListing) {
    throw new ValidationError([{ pointer: "/photos", code: "max", params: { max: maxPhotosPerListing, unit: "items" } }]);
  }
  const items: PhotoItem[] = [];
  const seen = new Map<string, number>();
  list.forEach((raw, index) => {
    const at = `/photos/${index}`;
    if (!isObject(raw)) {
      errors.push({ pointer: at, code: "object" });
      return;
    }
    const before = errors.length;
    const { url, key, floor, rooms } = raw;
    const hasUrl = url !== undefined && url !== null;
    const hasKey = key !== undefined && key !== null;
    if (!hasUrl && !hasKey) errors.push({ pointer: `${at}/url`, code: "required_without", params: { other: "key" } });
    if (hasUrl && hasKey) errors.push({ pointer: `${at}/key`, code: "prohibits", params: { other: "url" } });
    if (hasUrl) {
      if (typeof url !== "string") errors.push({ pointer: `${at}/url`, code: "string" });
      else if (url.length > maxPhotoUrlLength)
        errors.push({ pointer: `${at}/url`, code: "max", params: { max: maxPhotoUrlLength, unit: "characters" } });
      else if (controlCharacter.test(url) || !url.isWellFormed())
        errors.push({ pointer: `${at}/url`, code: "url", params: { scheme: "https" } });
      else {
        const form = checkUrlForm(url, ["https"]);
        if (!form.ok) {
          if (form.reason === "credentials_in_url")
            errors.push({ pointer: `${at}/url`, code: "invalid_value", params: { reason: "url_credentials" } });
          else if (form.reason === "private_address")
            errors.push({ pointer: `${at}/url`, code: "invalid_value", params: { reason: "url_not_public" } });
          else errors.push({ pointer: `${at}/url`, code: "url", params: { scheme: "https" } });
        }
      }
    }
    if (hasKey) {
      if (typeof key !== "string") errors.push({ pointer: `${at}/key`, code: "string" });
      // A string of another shape can be no key of ours: the same answer as a key of someone else.
      else if (!uploadKeyPattern.test(key))
        errors.push({ pointer: `${at}/key`, code: "invalid_value", params: { reason: "unknown_upload" } });
    }
    if (floor !== undefined && floor !== null) {
      if (typeof floor !== "string") errors.push({ pointer: `${at}/floor`, code: "string" });
      else if (!floorLevels.has(floor)) errors.push({ pointer: `${at}/floor`, code: "invalid_value", params: { reason: "unknown_level" } });
    }
    const labels: string[] = [];
    if (rooms !== undefined && rooms !== null) {
      if (!Array.isArray(rooms)) errors.push({ pointer: `${at}/rooms`, code: "array" });
      else if (rooms.length > maxRoomsPerPhoto)
        errors.push({ pointer: `${at}/rooms`, code: "max", params: { max: maxRoomsPerPhoto, unit: "items" } });
      else
        rooms.forEach((room, position) => {
          const where = `${at}/rooms/${position}`;
          const label = typeof room === "string" ? room.trim() : null;
          const unstorable = label === null ? undefined : unstorableReason(label);
          if (label === null) errors.push({ pointer: where, code: "string" });
          else if (unstorable) errors.push({ pointer: where, code: "invalid", params: { reason: unstorable } });
          else if (label.length === 0) errors.push({ pointer: where, code: "min", params: { min: 1, unit: "characters" } });
          else if (label.length > maxRoomLabelLength)
            errors.push({ pointer: where, code: "max", params: { max: maxRoomLabelLength, unit: "characters" } });
          else if (labels.includes(label)) errors.push({ pointer: where, code: "distinct" });
          else labels.push(label);
        });
    }
    if (errors.length > before) return;
    // The same file twice would be one photo in two places; its identity is its URL or key.
    const identity = hasUrl ? `url:${url as string}` : `key:${key as string}`;
    if (seen.has(identity)) {
      errors.push({ pointer: `${at}/${hasUrl ? "url" : "key"}`, code: "distinct" });
      return;
    }
    seen.set(identity, index);
    const extra = { floor: (floor as string | undefined) ?? null, rooms: labels };
    items.push(hasUrl ? { url: url as string, ...extra } : { key: key as string, ...extra });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return items;
}
