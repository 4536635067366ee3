import { rgbaToThumbHash } from "thumbhash";
import { maxPhotoBytes } from "../limits";
import { renderInRenderer } from "./renderer";

/** Why a file is not made into a photo: a `media.failed` reason (docs/photos.md, Photos). */
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
  | { ok: true; width: number; height: number; renditions: Rendition[]; placeholder: string; perceptualHash: bigint }
  | { ok: false; reason: RenderFailure };

type SourceFormat = "jpeg" | "png" | "webp";

/** The real type of the bytes, from their signature: what a sender declares is never trusted. */
export function sniffFormat(bytes: Uint8Array): SourceFormat | null {
  const starts = (signature: number[], offset = 0) => signature.every((byte, index) => bytes[offset + index] === byte);
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

const renditionTypes = {
  webp_1600: { contentType: "image/webp", extension: "webp" },
  webp_400: { contentType: "image/webp", extension: "webp" },
  jpeg_1600: { contentType: "image/jpeg", extension: "jpg" },
} as const;

/**
 * The derivatives of one photo, made by the photo renderer (render-process.mjs, a child process of
 * lower priority, so the server's requests keep their cores): turned upright by its EXIF
 * orientation, converted to sRGB, every metadata block (EXIF with GPS, XMP, IPTC, ICC) left out
 * (sharp writes none unless asked with `withMetadata`/`keepMetadata`, never called there), scaled to
 * fit 1600 px (WebP and a JPEG fallback) and 400 px (WebP) without enlarging, a ThumbHash
 * placeholder (base64, ~25 bytes) from its 100 px pixels, and its difference hash.
 */
export async function renderPhoto(bytes: Buffer): Promise<Rendered> {
  if (bytes.byteLength > maxPhotoBytes) return { ok: false, reason: "too_large" };
  const format = sniffFormat(bytes);
  // Not JPEG, PNG or WebP bytes, whatever the sender called them: `unprocessable`.
  if (!format) return { ok: false, reason: "unprocessable" };
  const answer = await renderInRenderer(bytes, format);
  if (!answer.ok) return answer;
  const { small } = answer;
  return {
    ok: true,
    width: answer.width,
    height: answer.height,
    renditions: answer.renditions.map((rendition) => ({
      ...rendition,
      ...renditionTypes[rendition.name],
      bytes: Buffer.from(rendition.bytes.buffer, rendition.bytes.byteOffset, rendition.bytes.byteLength),
    })),
    placeholder: Buffer.from(rgbaToThumbHash(small.width, small.height, small.rgba)).toString("base64"),
    perceptualHash: differenceHash(answer.grey.pixels, answer.grey.channels),
  };
}

/**
 * The 64-bit difference hash (dHash) of 9 × 8 grey pixels: a bit per pair of neighbours in a row, set
 * when the left one is brighter. Scaling and recompression keep the bits; another picture sets about
 * half of them differently. As a signed 64-bit integer, PostgreSQL's `bigint`.
 */
export function differenceHash(pixels: Uint8Array, channels = 1): bigint {
  let hash = 0n;
  for (let row = 0; row < 8; row++) {
    for (let column = 0; column < 8; column++) {
      const left = pixels[(row * 9 + column) * channels];
      const right = pixels[(row * 9 + column + 1) * channels];
      hash = (hash << 1n) | (left > right ? 1n : 0n);
    }
  }
  return BigInt.asIntN(64, hash);
}
