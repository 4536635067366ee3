import { enumeration } from "@/lib/base/i18n/labels";

/**
 * Why photos were left out: `reason` of `media.failed`, kept per photo. `download_failed` and
 * `unprocessable` are the general ones; the others say more precisely what `unprocessable` would.
 */
export const mediaFailureReasons = enumeration([
  ["download_failed", "Descărcare eșuată", "Download failed"],
  ["unprocessable", "Fișier neprelucrabil (nu este JPEG, PNG sau WebP valid)", "Unprocessable file (not a valid JPEG, PNG or WebP)"],
  ["too_large", "Fișier mai mare de 20 MB", "File larger than 20 MB"],
  ["too_many_pixels", "Rezoluție peste 100 de megapixeli", "Resolution over 100 megapixels"],
  ["upload_missing", "Fișierul încărcat nu mai există", "The uploaded file no longer exists"],
]);
