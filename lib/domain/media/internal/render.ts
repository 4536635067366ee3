import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { maxPhotoBytes, maxPhotoPixels } from "../limits";

/** Why a file is not made into a photo: a `media.failed` reason (README: Photos). */
export type RenderFailure = "too_large" | "too_many_pixels" | "unprocessable";

export interface Rendition {
  name: "webp_1600" | "webp_400" | "jpeg_1600";
  contentType: "image/webp" | "image/jpeg";
  extension: "webp" | "jpg";
  bytes: Buffer;
  width: number;
  height: number;
}

export type Rendered =
  { ok: true; width: number; height: number; renditions: Rendition[]; placeholder: string } | { ok: false; reason: RenderFailure };

type SourceFormat = "jpeg" | "png" | "webp";

/** The real type of the bytes, from their signature: what a sender declares is never trusted. */
export function sniffFormat(bytes: Uint8Array): SourceFormat | null {
  const starts = (signature: number[], offset = 0) => signature.every((byte, index) => bytes[offset + index] === byte);
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

const outputs = [
  { name: "webp_1600", size: 1600, format: "webp" },
  { name: "webp_400", size: 400, format: "webp" },
  { name: "jpeg_1600", size: 1600, format: "jpeg" },
] as const;

/**
 * Input options for bytes nobody vouches for: the pixel limit is checked from the header before any
 * pixel is decoded (a decompression bomb is refused without its memory), only the first frame of an
 * animation is read, and a truncated or corrupt file is an error rather than grey pixels.
 */
const inputOptions = { limitInputPixels: maxPhotoPixels, failOn: "error", pages: 1, autoOrient: true } as const;

/**
 * The derivatives of one photo: turned upright by its EXIF orientation, converted to sRGB, every
 * metadata block (EXIF with GPS, XMP, IPTC, ICC) left out (sharp writes none unless asked with
 * `withMetadata`/`keepMetadata`, never called here), scaled to fit 1600 px (WebP and a JPEG
 * fallback) and 400 px (WebP) without enlarging, and a ThumbHash placeholder (base64, ~25 bytes).
 */
export async function renderPhoto(bytes: Buffer): Promise<Rendered> {
  if (bytes.byteLength > maxPhotoBytes) return { ok: false, reason: "too_large" };
  const format = sniffFormat(bytes);
  // Not JPEG, PNG or WebP bytes, whatever the sender called them: `unprocessable`.
  if (!format) return { ok: false, reason: "unprocessable" };
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(bytes, inputOptions).metadata();
    if (metadata.format !== format) return { ok: false, reason: "unprocessable" };
    if (!metadata.width || !metadata.height) return { ok: false, reason: "unprocessable" };
    if (metadata.width * metadata.height > maxPhotoPixels) return { ok: false, reason: "too_many_pixels" };
    // Orientations 5 to 8 turn the picture a quarter: its width is the file's height.
    const turned = (metadata.orientation ?? 1) >= 5;
    width = turned ? metadata.height : metadata.width;
    height = turned ? metadata.width : metadata.height;
  } catch (error) {
    return { ok: false, reason: pixelLimit(error) ? "too_many_pixels" : "unprocessable" };
  }
  try {
    const upright = sharp(bytes, inputOptions).toColourspace("srgb");
    const renditions = await Promise.all(
      outputs.map(async (output): Promise<Rendition> => {
        const resized = upright.clone().resize({ width: output.size, height: output.size, fit: "inside", withoutEnlargement: true });
        const encoded = output.format === "webp" ? resized.webp({ quality: 80, effort: 4 }) : resized.jpeg({ quality: 82, mozjpeg: true });
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        return {
          name: output.name,
          contentType: output.format === "webp" ? "image/webp" : "image/jpeg",
          extension: output.format === "webp" ? "webp" : "jpg",
          bytes: data,
          width: info.width,
          height: info.height,
        };
      }),
    );
    const small = await upright
      .clone()
      .resize({ width: 100, height: 100, fit: "inside" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString("base64");
    return { ok: true, width, height, renditions, placeholder };
  } catch (error) {
    return { ok: false, reason: pixelLimit(error) ? "too_many_pixels" : "unprocessable" };
  }
}

const pixelLimit = (error: unknown): boolean => error instanceof Error && /pixel limit/i.test(error.message);
