/**
 * The processing side of the photo benchmark (`bench/photos.ts`), in a process of its own, started
 * the same way for both sides so that they compare like with like (one Node process, `tsx`, sharp
 * and nothing else on its event loop):
 *
 * - `product`: opens `DATABASE_URL` as the app does (postgres.js, pool of 10) and, on
 *   `{ type: "run" }`, runs the embedded runner's passes over the `photos.process` job
 *   (`runDueJobs`, as the runner's tick does) until a pass finds nothing due: the job rows the
 *   bench enqueued with `setListingPhotos` are claimed and run, each downloading its listing's
 *   photos with `safeGet`, rendering them with `renderPhoto`, storing the files in `BLOB_DIR` and
 *   publishing `images`.
 * - `bare`: the baseline. On `{ type: "run", urls, … }` it downloads each URL with plain
 *   `node:http` (a new connection each, as `safeGet`), makes the same derivatives with sharp as
 *   `lib/domain/media/internal/render-process.mjs` (auto-orient, sRGB, no metadata, 1600 px WebP q80
 *   effort 4, 400 px WebP, 1600 px JPEG q82 mozjpeg, a 100 px RGBA ThumbHash) and writes them
 *   with `writeFile`, at most `concurrency` photos at once (the product's `photoConcurrency()`), at
 *   the priority of the product's photo renderer (10 nice steps down).
 *
 * Both answer `{ type: "done", ms, cpuUs, peakKiB, … }`: wall time of the run, the process's CPU
 * (user + system) during it and its peak RSS (`VmHWM` of `/proc/self/status`), for the product its
 * photo renderer's added. `{ type: "reset" }`
 * resets the peak to the current RSS (`clear_refs` 5), so that a warm-up does not count.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { openDatabase } from "@/db/client";
import { maxPhotoPixels } from "@/lib/domain/media/limits";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { rendererPid } from "@/lib/domain/media/internal/renderer";
import { processCpuUs } from "./load";

export type PhotoWorkerCommand = { type: "reset" } | { type: "run" } | { type: "run"; urls: string[]; outDir: string; concurrency: number };

export type PhotoWorkerMessage =
  | { type: "ready"; rssKiB: number }
  | { type: "reset"; peakKiB: number }
  | { type: "done"; ms: number; cpuUs: number; peakKiB: number; jobs: number; failed: number; error?: string };

const send = (message: PhotoWorkerMessage) => process.send!(message);
const mode = process.argv[2];

/**
 * The processes whose memory and CPU count as this side's: this one, and for the product its photo
 * renderer (a child process, started at the warm-up's first photo).
 */
const processes = (): string[] => {
  const renderer = mode === "product" ? rendererPid() : undefined;
  return renderer ? ["self", String(renderer)] : ["self"];
};

/** Summed over the processes: for the peak, an upper bound of their peaks at once. */
const status = (field: "VmHWM" | "VmRSS"): number =>
  processes().reduce(
    (sum, pid) => sum + Number(readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? 0),
    0,
  );

/** CPU (user + system) of the side's processes so far, in µs. */
const cpuUs = (): number => processes().reduce((sum, pid) => sum + processCpuUs(pid === "self" ? process.pid : Number(pid)), 0);

function resetPeak(): number {
  for (const pid of processes()) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, "5");
    } catch {
      // Not Linux, or not allowed: the peak then counts the whole life of the process.
    }
  }
  return status("VmHWM");
}

async function timed(work: () => Promise<{ jobs: number; failed: number; error?: string }>): Promise<PhotoWorkerMessage> {
  const cpu = cpuUs();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  return { type: "done", ms, cpuUs: cpuUs() - cpu, peakKiB: status("VmHWM"), ...result };
}

if (mode === "product") {
  const database = await openDatabase({ url: process.env.DATABASE_URL! });
  process.on("message", (message: PhotoWorkerCommand) => {
    if (message.type === "reset") send({ type: "reset", peakKiB: resetPeak() });
    if (message.type === "run")
      void timed(async () => {
        let jobs = 0;
        let failed = 0;
        for (;;) {
          const pass = await runDueJobs({ database, jobs: [processPhotosJob] });
          jobs += pass.ran;
          failed += pass.failed + pass.retrying;
          if (pass.ran === 0) break;
        }
        return { jobs, failed };
      }).then(send);
  });
  process.on("disconnect", () => void database.close().finally(() => process.exit(0)));
  send({ type: "ready", rssKiB: status("VmRSS") });
} else if (mode === "bare") {
  // The product's sharp work runs in its renderer, 10 nice steps below the process that started it
  // (render-process.mjs): the baseline's at the same priority, every thread of it (libvips's workers
  // inherit theirs from libuv's pool, which exists already), so that other work on the machine slows
  // both sides alike.
  const lower = Math.min(19, os.getPriority() + 10);
  for (const thread of readdirSync("/proc/self/task")) os.setPriority(Number(thread), lower);
  process.on("message", (message: PhotoWorkerCommand) => {
    if (message.type === "reset") send({ type: "reset", peakKiB: resetPeak() });
    if (message.type === "run" && "urls" in message)
      void timed(async () => {
        const { urls, outDir, concurrency } = message;
        let next = 0;
        let failed = 0;
        let error: string | undefined;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < urls.length) {
              const index = next++;
              try {
                await renderAndStore(await download(urls[index]), path.join(outDir, String(index)));
              } catch (caught) {
                failed++;
                error = (caught as Error).message;
              }
            }
          }),
        );
        return { jobs: urls.length, failed, ...(error ? { error } : {}) };
      }).then(send);
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready", rssKiB: status("VmRSS") });
} else throw new Error(`photo-worker: mode product or bare, not ${mode}`);

/** The whole body of a GET, on a connection of its own. */
function download(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`GET ${url}: ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks)));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

// What render-process.mjs asks of sharp, written out here: the baseline shares sharp, not the product's code.
const input = { limitInputPixels: maxPhotoPixels, failOn: "error", pages: 1, autoOrient: true } as const;
const outputs = [
  { name: "webp_1600", size: 1600, format: "webp" },
  { name: "webp_400", size: 400, format: "webp" },
  { name: "jpeg_1600", size: 1600, format: "jpeg" },
] as const;

async function renderAndStore(bytes: Buffer, folder: string): Promise<void> {
  const upright = sharp(bytes, input).toColourspace("srgb");
  const files = await Promise.all(
    outputs.map(async (output) => {
      const resized = upright.clone().resize({ width: output.size, height: output.size, fit: "inside", withoutEnlargement: true });
      const encoded = output.format === "webp" ? resized.webp({ quality: 80, effort: 4 }) : resized.jpeg({ quality: 82, mozjpeg: true });
      return { name: `${output.name}.${output.format === "webp" ? "webp" : "jpg"}`, data: await encoded.toBuffer() };
    }),
  );
  const small = await upright
    .clone()
    .resize({ width: 100, height: 100, fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString("base64");
  await mkdir(folder, { recursive: true });
  for (const file of files) await writeFile(path.join(folder, file.name), file.data);
  await writeFile(path.join(folder, "placeholder.txt"), placeholder);
}
