/**
 * The photo processing benchmark of `npm run bench` (alone: `BENCH_ONLY=photos`). 20 phone-like
 * JPEGs of 12 MP (4000 × 3000, 3.6–5.5 MB, EXIF orientation and GPS), made here with sharp once and
 * kept in `.data/bench/photos`, served by a local `node:http` server as URL photos. The product: a
 * listing's list set with `setListingPhotos` (what `PUT /listings/{code}/photos` does) and the
 * `photos.process` job run by the embedded runner's pass in a process of its own
 * (`bench/photo-worker.ts product`), local file storage in a temporary folder; against bare sharp
 * making the same derivatives from the same URLs in a process of the same kind
 * (`bench/photo-worker.ts bare`) with the same concurrency. Then, unless `BENCH_PHOTO_SERVER=0`, the
 * same batch processed inside `next start` by its embedded runner while listing reads are sent at a
 * fixed rate: their p99 against the same reads on the idle server. docs/benchmarks.md
 * ("Photo processing") explains the figures.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import type { Sql } from "postgres";
import { setListingPhotos } from "@/lib/domain/media/set-photos";
import { photoConcurrency } from "@/lib/domain/media/internal/limiter";
import { resetConfig } from "@/lib/base/config";
import { accountContext, type OperatorActor, type ServiceContext } from "@/lib/base/context";
import { KeyPool } from "./key-pool";
import { positiveEnv } from "./lifecycle";
import { processCpuUs, type Figure } from "./load";
import type { Check, Measurement } from "./report";
import { bearer, readRequests } from "./requests";
import { currentRuntime } from "./runtimes";
import { createAccounts, listingsOf, listingTemplate, seedListings } from "./seed";
import { startNext } from "./servers";
import type { PhotoWorkerCommand, PhotoWorkerMessage } from "./photo-worker";

export const photoSettings = {
  photos: 20,
  width: 4000,
  height: 3000,
  /** Rounds of the product and the bare baseline, taking turns; the fastest round of each counts. */
  rounds: positiveEnv("BENCH_PHOTO_ROUNDS", 3),
  /** Listing reads per second sent to the server, idle and while it processes the batch. */
  readRate: positiveEnv("BENCH_PHOTO_READ_RATE", 50),
  /** Seconds of the idle read run (after 3 s of warm-up). */
  idleSeconds: positiveEnv("BENCH_PHOTO_IDLE", 10),
  /** `0`: no Next.js server part (no build needed). */
  server: process.env.BENCH_PHOTO_SERVER !== "0",
  /** A folder: the product's process writes a V8 CPU profile there (`--cpu-prof`). */
  cpuProfDir: process.env.BENCH_PHOTO_CPU_PROF,
  /** The product's photo slots per process, which the baseline uses too. */
  concurrency: 0,
};

type Log = (line: string) => void;
const firstListing = 60_000_000;
const cacheDir = path.resolve(".data/bench/photos");
/** Bumped whenever the generated photos change, so an old cache is not used. */
const cacheVersion = "v1";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

/**
 * Photo-like pixels: gradients and slow waves under per-pixel noise (what makes a phone photo's
 * JPEG 3–6 MB), from a seeded xorshift so every run serves the same bytes.
 */
function pixels(seed: number, width: number, height: number, noise: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let state = (seed * 2654435761) >>> 0 || 1;
  const fx = 0.002 + (seed % 5) * 0.0007;
  const fy = 0.003 + (seed % 3) * 0.0009;
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let y = 0; y < height; y++) {
    const wy = Math.sin(y * fy + seed);
    for (let x = 0; x < width; x++) {
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      const n = (((state & 0xff) - 128) * noise) / 128;
      const wave = 40 * (Math.sin(x * fx) + wy);
      const at = (y * width + x) * 3;
      data[at] = clamp((x * 200) / width + 30 + wave + n);
      data[at + 1] = clamp((y * 200) / height + 20 - wave + n);
      data[at + 2] = clamp(120 + wave * 0.5 + (((state >>> 8) & 0xff) * noise) / 256 - noise / 2);
    }
  }
  return data;
}

/** The 20 JPEGs, made once (about 1.5 s each) and kept in `.data/bench/photos`. Even ones are stored turned (orientation 6), as a phone held upright stores them. */
async function benchPhotos(log: Log): Promise<Buffer[]> {
  mkdirSync(cacheDir, { recursive: true });
  const files: Buffer[] = [];
  for (let i = 0; i < photoSettings.photos; i++) {
    const file = path.join(cacheDir, `${cacheVersion}-${i}.jpg`);
    if (!existsSync(file)) {
      if (i === 0 || !existsSync(path.join(cacheDir, `${cacheVersion}-${i - 1}.jpg`)))
        log(`photos: making ${photoSettings.photos} JPEGs of 12 MP into ${path.relative(process.cwd(), cacheDir)}`);
      const { width, height } = photoSettings;
      const jpeg = await sharp(pixels(i + 1, width, height, 16 + (i % 5) * 4), { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 90 })
        .withExif({
          IFD0: { Make: "BenchPhone", Model: "12MP", DateTime: "2026:11:25 10:00:00" },
          // IFD3 is the GPS directory: what every output must leave out.
          IFD3: { GPSLatitudeRef: "N", GPSLatitude: "46/1 32/1 4200/100", GPSLongitudeRef: "E", GPSLongitude: "24/1 33/1 1800/100" },
        })
        .withMetadata({ orientation: i % 2 === 0 ? 6 : 1 })
        .toBuffer();
      writeFileSync(file, jpeg);
    }
    files.push(readFileSync(file));
  }
  return files;
}

/** Serves the photos at `/<round>/<n>.jpg` (each round's URLs are new photos to the product). */
async function photoServer(files: Buffer[]): Promise<{ origin: string; urls: (round: string) => string[]; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const index = Number(request.url?.match(/\/(\d+)\.jpg$/)?.[1] ?? -1);
    const body = files[index];
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "image/jpeg", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: (round) => files.map((_, i) => `${origin}/${round}/${i}.jpg`),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Worker {
  process: ChildProcess;
  ask(command: PhotoWorkerCommand, answer: PhotoWorkerMessage["type"]): Promise<PhotoWorkerMessage>;
  stop(): Promise<void>;
}

async function startWorker(mode: "product" | "bare", env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<Worker> {
  const child = fork(path.resolve("bench/photo-worker.ts"), [mode], {
    execArgv: ["--import", "tsx", ...execArgv],
    env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = (type: PhotoWorkerMessage["type"]) =>
    new Promise<PhotoWorkerMessage>((resolve, reject) => {
      const onMessage = (message: PhotoWorkerMessage) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(message);
      };
      const onExit = (code: number | null) => reject(new Error(`photo-worker ${mode} exited (${code}) before "${type}"`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  await next("ready");
  return {
    process: child,
    ask: (command, answer) => {
      const answered = next(answer);
      child.send(command);
      return answered;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

type Done = Extract<PhotoWorkerMessage, { type: "done" }>;
interface Round {
  msPerPhoto: number;
  cpuMsPerPhoto: number;
  peakMiB: number;
  loadAverage: number;
}

const roundOf = (done: Done, loadAverage: number): Round => ({
  msPerPhoto: done.ms / photoSettings.photos,
  cpuMsPerPhoto: done.cpuUs / 1000 / photoSettings.photos,
  peakMiB: done.peakKiB / 1024,
  loadAverage,
});

/**
 * After a run: the listing's `images` are its photos' 1600 px WebP in the order the list gave the
 * URLs, every photo `done`, `media.processing` false. Anything else fails the run.
 */
async function checkListing(pg: Sql, code: string, urls: string[]): Promise<void> {
  const [listing] = await pg<{ id: string; images: string[]; processing: boolean }[]>`
    select id, images, media_processing as processing from listings where code = ${code}`;
  const rows = await pg<{ source_url: string; state: string; url: string | null }[]>`
    select source_url, state, derivatives->'webp_1600'->>'url' as url from photos where listing_id = ${listing.id} order by position`;
  const inOrder =
    rows.length === urls.length &&
    rows.every((row, i) => row.source_url === urls[i] && row.state === "done" && row.url === listing.images[i]) &&
    listing.images.length === urls.length;
  if (listing.processing || !inOrder)
    throw new Error(
      `photos: listing ${code} ended with ${listing.images.length} images, photos ${rows.map((r) => r.state).join(" ")}, media.processing ${listing.processing} (expected ${urls.length} done, in the list's order)`,
    );
}

export async function runPhotoBench(input: {
  ctx: ServiceContext<OperatorActor>;
  pg: Sql;
  databaseUrl: string;
  log: Log;
  cleanup: (step: () => Promise<void>) => void;
  loadAverage: () => number;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, pg, log, cleanup } = input;
  const settings = photoSettings;
  // Photo URLs on 127.0.0.1 over http:// need the local-testing switch, here (the list is checked
  // when it is set) and in the product's processes (every download checks it again).
  process.env.UNSAFE_ALLOW_LOCAL_URLS = "1";
  resetConfig();
  settings.concurrency = photoConcurrency();

  const files = await benchPhotos(log);
  const megabytes = files.map((f) => f.length / 1e6);
  log(
    `photos: ${files.length} JPEGs of ${settings.width} × ${settings.height}, ${round(Math.min(...megabytes), 2)}–${round(Math.max(...megabytes), 2)} MB; ${settings.concurrency} photo slots per process (PHOTO_CONCURRENCY or one core fewer than the machine's, 1 to 4)`,
  );
  const server = await photoServer(files);
  cleanup(server.close);
  const work = mkdtempSync(path.join(os.tmpdir(), "bench-photos-"));
  cleanup(async () => rmSync(work, { recursive: true, force: true }));

  const [account] = await createAccounts(ctx, "photos", 1);
  const listingCount = 2 * (settings.rounds + 1);
  await seedListings(pg, { template: await listingTemplate(ctx), owners: [account.id], first: firstListing, count: listingCount });
  const codes = (await listingsOf(pg, [account.id])).map((l) => l.code);
  const owner = accountContext(ctx.database, { accountId: account.id, agency: null });
  const setList = async (code: string, urls: string[]) => {
    const { queued } = await setListingPhotos({
      ctx: { ...owner, now: new Date() },
      input: { code, body: { photos: urls.map((url) => ({ url })) } },
    });
    if (queued !== urls.length) throw new Error(`photos: ${queued} of ${urls.length} photos queued on ${code}`);
  };

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: input.databaseUrl,
    LOG_LEVEL: "error",
    APP_ENV: "sandbox",
    BLOB_DIR: path.join(work, "product-blobs"),
  };
  delete childEnv.BLOB_READ_WRITE_TOKEN;
  const product = await startWorker(
    "product",
    childEnv,
    settings.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(settings.cpuProfDir)}`] : [],
  );
  cleanup(product.stop);
  const bare = await startWorker("bare", childEnv);
  cleanup(bare.stop);

  // Warm-up, not measured: 2 photos each (sharp's and the code's first use), then the peaks reset.
  log("photos: warm-up (2 photos each side)");
  let listing = 0;
  const warmCode = codes[listing++];
  await setList(warmCode, server.urls("warm").slice(0, 2));
  await product.ask({ type: "run" }, "done");
  await checkListing(pg, warmCode, server.urls("warm").slice(0, 2));
  await bare.ask(
    { type: "run", urls: server.urls("warm").slice(0, 2), outDir: path.join(work, "bare-warm"), concurrency: settings.concurrency },
    "done",
  );
  await product.ask({ type: "reset" }, "reset");
  await bare.ask({ type: "reset" }, "reset");

  const productRounds: Round[] = [];
  const bareRounds: Round[] = [];
  for (let r = 1; r <= settings.rounds; r++) {
    const code = codes[listing++];
    await setList(code, server.urls(`round-${r}`));
    let loadAverage = input.loadAverage();
    const done = (await product.ask({ type: "run" }, "done")) as Done;
    if (done.failed > 0 || done.jobs === 0)
      throw new Error(`photos: the product's run ${r} ran ${done.jobs} jobs, ${done.failed} failed or retrying`);
    await checkListing(pg, code, server.urls(`round-${r}`));
    productRounds.push(roundOf(done, loadAverage));
    loadAverage = input.loadAverage();
    const bareDone = (await bare.ask(
      { type: "run", urls: server.urls(`round-${r}`), outDir: path.join(work, `bare-${r}`), concurrency: settings.concurrency },
      "done",
    )) as Done;
    if (bareDone.failed > 0) throw new Error(`photos: the bare run ${r} failed ${bareDone.failed} photos (${bareDone.error})`);
    bareRounds.push(roundOf(bareDone, loadAverage));
    const [p, b] = [productRounds.at(-1)!, bareRounds.at(-1)!];
    log(
      `photos: round ${r}: product ${round(p.msPerPhoto)} ms/photo (CPU ${round(p.cpuMsPerPhoto)} ms), peak RSS ${round(p.peakMiB)} MiB; bare ${round(b.msPerPhoto)} ms/photo (CPU ${round(b.cpuMsPerPhoto)} ms), peak RSS ${round(b.peakMiB)} MiB; load ${loadAverage.toFixed(1)}`,
    );
  }
  await product.stop();
  await bare.stop();
  const fastest = (rounds: Round[]) => rounds.reduce((best, r) => (r.msPerPhoto < best.msPerPhoto ? r : best));
  const peak = (rounds: Round[]) => Math.max(...rounds.map((r) => r.peakMiB));
  const [productBest, bareBest] = [fastest(productRounds), fastest(bareRounds)];

  const measurements: Measurement[] = [];
  const photoWhat = `${settings.photos} JPEGs of 12 MP (${settings.width} × ${settings.height}, EXIF orientation and GPS) downloaded from a local server, ${settings.concurrency} at a time`;
  const checks: Check[] = [
    {
      name: "photos: time per photo, product ÷ bare sharp",
      value: ratio(productBest.msPerPhoto, bareBest.msPerPhoto),
      unit: "",
      kind: "max",
      // The renderer is a process of its own (its bytes go over IPC) with one libvips thread per operation: 1.5 allows for it.
      target: 1.5,
      how:
        `wall time per photo of the photos.process job run by the embedded runner's pass in a process of its own (${photoWhat}; job claimed → images published; local storage) ÷ ` +
        `that of bare sharp making the same derivatives from the same URLs in a process of the same kind (plain node:http download, writeFile); the fastest of ${settings.rounds} rounds each, the two taking turns`,
    },
    {
      name: "photos: peak RSS, product ÷ bare sharp",
      value: ratio(peak(productRounds), peak(bareRounds)),
      unit: "",
      kind: "max",
      target: 1.5,
      how: `VmHWM of each process over its ${settings.rounds} rounds (reset after a warm-up of 2 photos), product's process with its photo renderer's added ÷ bare sharp's`,
    },
    ...(
      [
        ["product: wall time per photo", productBest.msPerPhoto, " ms"],
        ["bare sharp: wall time per photo", bareBest.msPerPhoto, " ms"],
        ["product: CPU per photo", productBest.cpuMsPerPhoto, " ms"],
        ["bare sharp: CPU per photo", bareBest.cpuMsPerPhoto, " ms"],
        ["product: peak RSS", peak(productRounds), " MiB"],
        ["bare sharp: peak RSS", peak(bareRounds), " MiB"],
      ] as const
    ).map(([name, value, unit]): Check => ({
      name: `photos: ${name}`,
      value: round(value),
      unit,
      kind: "info",
      how: "per-process figures of the fastest round (time, CPU: user + system of the process) and the highest peak (RSS) behind the two ratios above",
    })),
    {
      name: "photos: by CPU, product ÷ bare sharp",
      value: ratio(productBest.cpuMsPerPhoto, bareBest.cpuMsPerPhoto),
      unit: "",
      kind: "info",
      how: "CPU time (user + system) of the product's process per photo ÷ that of bare sharp's, in their fastest rounds (PostgreSQL's CPU not counted)",
    },
  ];
  const details: Record<string, unknown> = {
    concurrency: settings.concurrency,
    photoMegabytes: megabytes.map((m) => round(m, 2)),
    rounds: { product: productRounds, bare: bareRounds },
  };

  if (settings.server) {
    const inServer = await serverPart({
      ...input,
      codes: codes.slice(listing),
      urls: server.urls("server"),
      blobDir: path.join(work, "server-blobs"),
      key: account.keys[0],
    });
    measurements.push(...inServer.measurements);
    checks.push(...inServer.checks);
    details.server = inServer.details;
  } else log("photos: the Next.js server part skipped: BENCH_PHOTO_SERVER=0");
  return { measurements, checks, details };
}

/**
 * The batch processed inside `next start` (the embedded runner starts with the server) while
 * listing reads go at a fixed rate, against the same reads on the idle server.
 */
async function serverPart(input: {
  ctx: ServiceContext<OperatorActor>;
  pg: Sql;
  databaseUrl: string;
  log: Log;
  cleanup: (step: () => Promise<void>) => void;
  loadAverage: () => number;
  codes: string[];
  urls: string[];
  blobDir: string;
  /** A key of the account that owns `codes` (media:write). */
  key: string;
}): Promise<{ measurements: Measurement[]; checks: Check[]; details: Record<string, unknown> }> {
  const { ctx, pg, log, cleanup, codes, urls } = input;
  const settings = photoSettings;
  const readers = await createAccounts(ctx, "photo-reads", 3);
  await seedListings(pg, {
    template: await listingTemplate(ctx),
    owners: readers.map((a) => a.id),
    first: firstListing + 1000,
    count: 300,
  });
  const reads = readRequests(
    readers,
    await listingsOf(
      pg,
      readers.map((a) => a.id),
    ),
  );
  const pool = new KeyPool(readers);
  // The event-loop delay inside the server, per second (bench/loop-probe.mjs, no product code involved).
  const probeFile = path.join(input.blobDir, "..", "loop-probe.jsonl");
  const next = await startNext(
    {
      DATABASE_URL: input.databaseUrl,
      APP_ENV: "sandbox",
      JOBS_RUNNER: "on",
      LOG_LEVEL: "error",
      API_LOG: "on",
      BLOB_DIR: input.blobDir,
      UNSAFE_ALLOW_LOCAL_URLS: "1",
      LOOP_PROBE_FILE: probeFile,
      LOOP_PROBE_INTERVAL_MS: "1000",
    },
    { nodeOptions: `--import=${pathToFileURL(path.resolve("bench/loop-probe.mjs")).href}` },
  );
  cleanup(next.stop);
  log(`photos: Next.js with its embedded runner on ${next.url}; reads at ${settings.readRate}/s`);
  // Idle sockets are closed after 2 s, well before the server's keep-alive time-out (5 s): a socket
  // the server closes as it is reused would fail a read that never reached it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 2000 });
  cleanup(async () => agent.destroy());
  let sent = 0;
  const readAt = () => reads[sent++ % reads.length];

  const warmupSeconds = 3;
  await pool.run(settings.readRate * warmupSeconds + 50, log, () =>
    fixedRate(next.url, agent, readAt, settings.readRate, () => false, warmupSeconds, log),
  );
  const idleLoad = input.loadAverage();
  const idleWindow = { from: Date.now(), to: 0, cpuUs: processCpuUs(next.pid) };
  const idle = await pool.run(settings.readRate * settings.idleSeconds + 50, log, () =>
    fixedRate(next.url, agent, readAt, settings.readRate, () => false, settings.idleSeconds, log),
  );
  idleWindow.to = Date.now();
  idleWindow.cpuUs = processCpuUs(next.pid) - idleWindow.cpuUs;

  // The listing of the batch belongs to the photos account: its owner's key sets the list through the API.
  const code = codes[0];
  const busyLoad = input.loadAverage();
  const busyWindow = { from: Date.now(), to: 0, cpuUs: processCpuUs(next.pid) };
  const maxBusySeconds = 120;
  let processed = false;
  let batchMs = 0;
  const busy = await pool.run(settings.readRate * maxBusySeconds, log, async () => {
    const start = performance.now();
    const answer = await fetch(`${next.url}/api/v1/listings/${code}/photos`, {
      method: "PUT",
      headers: { ...bearer(input.key), "content-type": "application/json" },
      body: JSON.stringify({ photos: urls.map((url) => ({ url })) }),
    });
    if (answer.status !== 202) throw new Error(`photos: PUT /listings/${code}/photos answered ${answer.status}: ${await answer.text()}`);
    // The reads start once the list is set: the job is queued, and the runner takes it within its next tick.
    const readsDone = fixedRate(next.url, agent, readAt, settings.readRate, () => processed, maxBusySeconds, log);
    for (;;) {
      const [row] = await pg<{ processing: boolean; images: number }[]>`
        select media_processing as processing, jsonb_array_length(images)::int as images from listings where code = ${code}`;
      if (!row.processing && row.images === urls.length) break;
      if (performance.now() - start > maxBusySeconds * 1000)
        throw new Error(`photos: the server did not process the batch in ${maxBusySeconds} s`);
      await sleep(100);
    }
    batchMs = performance.now() - start;
    processed = true;
    return readsDone;
  });
  busyWindow.to = Date.now();
  busyWindow.cpuUs = processCpuUs(next.pid) - busyWindow.cpuUs;
  await sleep(1100);
  await checkListing(pg, code, urls);
  await next.stop();
  const samples = existsSync(probeFile)
    ? readFileSync(probeFile, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { at: number; p99: number; max: number })
    : [];
  const loop = (window: { from: number; to: number; cpuUs: number }) => {
    // A sample covers the second before its `at`.
    const inside = samples.filter((s) => s.at > window.from + 1000 && s.at <= window.to + 1000);
    return {
      p99Ms: Math.max(0, ...inside.map((s) => s.p99)),
      maxMs: Math.max(0, ...inside.map((s) => s.max)),
      cores: round(window.cpuUs / 1000 / (window.to - window.from), 2),
    };
  };
  const [idleLoop, busyLoop] = [loop(idleWindow), loop(busyWindow)];
  log(
    `photos: in the server, idle: event-loop delay p99 ≤ ${idleLoop.p99Ms} ms (max ${idleLoop.maxMs} ms), ${idleLoop.cores} cores; batch: p99 ≤ ${busyLoop.p99Ms} ms (max ${busyLoop.maxMs} ms), ${busyLoop.cores} cores`,
  );

  const name = (what: string) => `${currentRuntime().name}  photos: GET /api/v1/account/listings/{code} ${what}`;
  const measurements: Measurement[] = [
    { name: name(`at ${settings.readRate}/s, idle`), figure: idle, expected: [200], loadAverage: idleLoad },
    { name: name(`at ${settings.readRate}/s, batch processing`), figure: busy, expected: [200], loadAverage: busyLoad },
  ];
  const checks: Check[] = [
    {
      name: "photos: read p99 while the batch is processed ÷ idle",
      value: ratio(busy.p99Ms, idle.p99Ms),
      unit: "",
      kind: "max",
      target: 3,
      how: `p99 of GET /api/v1/account/listings/{code} at ${settings.readRate} req/s while next start's embedded runner processes the ${urls.length} photos (PUT /photos → images published) ÷ its p99 at the same rate on the idle server (${settings.idleSeconds} s)`,
    },
    {
      name: "photos: in the server, wall time per photo",
      value: round(batchMs / urls.length),
      unit: " ms",
      kind: "info",
      how: "PUT /api/v1/listings/{code}/photos sent → images published (polled every 100 ms; the runner polls its jobs every second), ÷ photos, with the reads going",
    },
    {
      name: "photos: in the server, event-loop delay, worst 1 s p99 idle",
      value: idleLoop.p99Ms,
      unit: ` ms (max ${idleLoop.maxMs} ms)`,
      kind: "info",
      how: "the worst of the per-second p99s of the server's event-loop delay (bench/loop-probe.mjs, 10 ms timer, its own 10 ms taken off) in each run, and the longest single delay: how late a timer fired, whether the main thread was running JavaScript or waiting for a core (a V8 profile, BENCH_PHOTO_CPU_PROF, tells them apart)",
    },
    {
      name: "photos: in the server, event-loop delay, worst 1 s p99 during the batch",
      value: busyLoop.p99Ms,
      unit: ` ms (max ${busyLoop.maxMs} ms)`,
      kind: "info",
      how: "the worst of the per-second p99s of the server's event-loop delay (bench/loop-probe.mjs, 10 ms timer, its own 10 ms taken off) in each run, and the longest single delay: how late a timer fired, whether the main thread was running JavaScript or waiting for a core (a V8 profile, BENCH_PHOTO_CPU_PROF, tells them apart)",
    },
    {
      name: "photos: in the server, cores used idle / during the batch",
      value: idleLoop.cores,
      unit: ` / ${busyLoop.cores}`,
      kind: "info",
      how: "CPU time of the next start process (user + system, from /proc, all its threads) ÷ wall time of each run; its photo renderer, a child process of its own, not counted",
    },
  ];
  return {
    measurements,
    checks,
    details: { readRate: settings.readRate, batchSeconds: round(batchMs / 1000, 2), eventLoop: { idle: idleLoop, batch: busyLoop } },
  };
}

/**
 * Sends GETs at `rate` per second (whatever the answers take; at most 32 in flight) for `seconds`
 * or until `stop()`; latency from sending to the whole body.
 */
async function fixedRate(
  url: string,
  agent: http.Agent,
  requestAt: () => { path: string; headers: Record<string, string> },
  rate: number,
  stop: () => boolean,
  seconds: number,
  log: Log,
): Promise<Figure> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const failed = (error: Error) => {
    if (errors++ < 5) log(`photos: read failed: ${error.message}`);
  };
  const pending = new Set<Promise<void>>();
  const start = performance.now();
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due - start > seconds * 1000 || stop()) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const { path: requestPath, headers } = requestAt();
    const sentAt = performance.now();
    const one = new Promise<void>((resolve) => {
      const request = http.get(`${url}${requestPath}`, { agent, headers, timeout: 30_000 }, (response) => {
        response.on("data", () => undefined);
        response.on("end", () => {
          statuses[response.statusCode ?? 0] = (statuses[response.statusCode ?? 0] ?? 0) + 1;
          latencies.push(performance.now() - sentAt);
          resolve();
        });
        response.on("error", (error) => {
          failed(error);
          resolve();
        });
      });
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", (error) => {
        failed(error);
        resolve();
      });
    });
    pending.add(one);
    void one.then(() => pending.delete(one));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: round(latencies.length / elapsed),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    meanMs: round(latencies.reduce((sum, l) => sum + l, 0) / (latencies.length || 1)),
    requests: latencies.length,
    seconds: round(elapsed, 2),
    statuses,
    non2xx: Object.entries(statuses).reduce((sum, [code, n]) => sum + (code.startsWith("2") ? 0 : n), 0),
    errors,
  };
}
