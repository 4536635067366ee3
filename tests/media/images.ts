import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

/** A JPEG made here (no file from the internet): a colour gradient so that encoders have work to do. */
export async function jpegPhoto(options: { width?: number; height?: number; gps?: boolean; orientation?: number } = {}): Promise<Buffer> {
  const width = options.width ?? 1200;
  const height = options.height ?? 800;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128;
    }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 });
  if (options.gps) {
    image = image.withExif({
      IFD0: { ImageDescription: "marker-of-the-source-exif", Make: "TestCam" },
      // IFD3 is the GPS directory.
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "44/1 25/1 3000/100", GPSLongitudeRef: "E", GPSLongitude: "26/1 6/1 1200/100" },
    });
  }
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

export const pngPhoto = (width = 640, height = 480): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 220, alpha: 1 } } })
    .png()
    .toBuffer();

export const webpPhoto = (width = 500, height = 500): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .webp()
    .toBuffer();

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid 1-bit greyscale PNG of `width` × `height` zeros: a few hundred kilobytes that decode to
 * width × height pixels (a 400 MP one is a decompression bomb of over a gigabyte in RGB).
 */
export function blankPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const rows = Buffer.alloc(row.length * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
