/**
 * The photo renderer: a child process of its own (started by renderer.ts), so that libvips's work
 * never runs on the server's threads. Plain JavaScript loaded by path, not bundled: it runs the same
 * under `next start`, the release bundle, tsx and the tests, and needs only sharp, which every one of
 * them has in node_modules.
 *
 * It lowers its priority first (10 steps below its parent), before libvips exists. On Linux the
 * nice value belongs to each thread, and a thread made later inherits its maker's: lowering the
 * main thread alone left libvips's workers at the server's priority (they are made by libuv's
 * pool, which Node started earlier), so every thread the process has is lowered, and every core the
 * web process asks for is given to it first. Then one libvips thread per operation (`sharp.concurrency`),
 * the parallelism being the photos the parent sends at once, and no cache of operations. Each request `{ id, bytes }` is
 * answered `{ id, result }`: the photo's size as it stands upright and its three renditions, or the
 * reason it cannot be one; the ThumbHash and the difference hash are computed by the parent from the
 * 100 px pixels and from 9 × 8 grey ones.
 */
import { readdirSync } from "node:fs";
import os from "node:os";

// 10 steps below the web process (19 is the lowest there is).
const lower = Math.min(19, os.getPriority() + 10);
let threads = [0];
try {
  threads = readdirSync("/proc/self/task").map(Number);
} catch {
  // No /proc (macOS): there the priority is the whole process's.
}
for (const thread of threads) {
  try {
    os.setPriority(thread, lower);
  } catch {
    // Not allowed here (some sandboxes): the renderer still runs, at the parent's priority.
  }
}
const { default: sharp } = await import("sharp");
sharp.concurrency(1);
// Every photo is new bytes: libvips's cache of operations could only keep memory, never a result.
sharp.cache(false);

const maxPixels = Number(process.env.PHOTO_MAX_PIXELS);
/**
 * Input options for bytes nobody vouches for: the pixel limit is checked from the header before any
 * pixel is decoded (a decompression bomb is refused without its memory), only the first frame of an
 * animation is read, and a truncated or corrupt file is an error rather than grey pixels.
 */
const inputOptions = { limitInputPixels: maxPixels, failOn: "error", pages: 1, autoOrient: true };

const outputs = [
  { name: "webp_1600", size: 1600, format: "webp" },
  { name: "webp_400", size: 400, format: "webp" },
  { name: "jpeg_1600", size: 1600, format: "jpeg" },
];

const pixelLimit = (error) => error instanceof Error && /pixel limit/i.test(error.message);

async function render(bytes, format) {
  let width;
  let height;
  try {
    const metadata = await sharp(bytes, inputOptions).metadata();
    if (metadata.format !== format) return { ok: false, reason: "unprocessable" };
    if (!metadata.width || !metadata.height) return { ok: false, reason: "unprocessable" };
    if (metadata.width * metadata.height > maxPixels) return { ok: false, reason: "too_many_pixels" };
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
      outputs.map(async (output) => {
        const resized = upright.clone().resize({ width: output.size, height: output.size, fit: "inside", withoutEnlargement: true });
        const encoded = output.format === "webp" ? resized.webp({ quality: 80, effort: 4 }) : resized.jpeg({ quality: 82, mozjpeg: true });
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        return { name: output.name, bytes: data, width: info.width, height: info.height };
      }),
    );
    const small = await upright
      .clone()
      .resize({ width: 100, height: 100, fit: "inside" })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // The difference hash's 9 × 8 grey pixels, from the 100 px ones: no second decode of the file.
    const grey = await sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: 4 } })
      .removeAlpha()
      .greyscale()
      .resize({ width: 9, height: 8, fit: "fill" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      ok: true,
      width,
      height,
      renditions,
      small: { width: small.info.width, height: small.info.height, rgba: small.data },
      grey: { channels: grey.info.channels, pixels: grey.data },
    };
  } catch (error) {
    return { ok: false, reason: pixelLimit(error) ? "too_many_pixels" : "unprocessable" };
  }
}

process.on("message", (message) => {
  void render(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength), message.format).then((result) =>
    process.send({ id: message.id, result }),
  );
});
// The parent gone (stopped, or killed): nothing is left to render for.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true, pid: process.pid });
