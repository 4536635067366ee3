/**
 * `npm run soak`: mixed traffic against the production build on a throwaway PostgreSQL database
 * for `SOAK_MINUTES` (10), sampling the server every 10 s: RSS (from `/proc/<pid>/status` of the
 * `next start` process itself), p99 latency of the interval, and the event-loop delay measured
 * inside the server by `bench/loop-probe.mjs` (loaded with `NODE_OPTIONS=--import`, no product
 * code involved). Prints the samples as a table and exits 1 when RSS grows by more than 20 % over
 * the highest RSS up to the reference sample (at 20 % of the run: 2 minutes of 10), when any 5xx
 * is answered, or when a request gets no answer. Not part of CI; docs/benchmarks.md explains it.
 *
 * `npm run soak -- --fleet [--minutes 30] [--capacity <requests a second>]` soaks the fleet instead
 * (bench/fleet-soak.ts). `--minutes` sets the length of either soak.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { KeyPool } from "./key-pool";
import { positiveEnv, runScript, throwawayDatabase } from "./lifecycle";
import { bearer } from "./requests";
import { fleetSoak } from "./fleet-soak";
import { currentRuntime, node24 } from "./runtimes";
import { createAccounts, listingsOf, listingTemplate, seedListings, type BenchAccount } from "./seed";
import { ensureBuild, startNext } from "./servers";

const { values: options } = parseArgs({
  options: { fleet: { type: "boolean", default: false }, minutes: { type: "string" }, capacity: { type: "string" } },
});
const positiveOption = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!(Number(value) > 0)) throw new Error(`--${name} must be a positive number`);
  return Number(value);
};

const settings = {
  adminUrl: process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  minutes: positiveOption("minutes", options.minutes) ?? positiveEnv("SOAK_MINUTES", options.fleet ? 30 : 10),
  /** Requests per second sent, whatever the answers take (an open loop), up to `connections` in flight. */
  rate: positiveEnv("SOAK_RATE", 50),
  connections: positiveEnv("SOAK_CONNECTIONS", 16),
  node: process.env.SOAK_NODE ?? "20",
  sampleSeconds: 10,
  listingsPerAccount: 1000,
  refsPerAccount: 50,
  rssGrowthLimit: 0.2,
  timeoutMs: 30_000,
};
const resultsFile = path.resolve(".data/bench/soak.json");
const probeFile = path.resolve(`.data/bench/loop-probe-${process.pid}.jsonl`);
const started = Date.now();
const log = (line: string) => process.stderr.write(`[soak ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

process.env.APP_ENV = "sandbox";

/** The traffic mix: shares of the requests sent. */
const mix = [
  { op: "read", share: 0.4 },
  { op: "patch", share: 0.25 },
  { op: "upsert", share: 0.15 },
  { op: "events", share: 0.1 },
  { op: "create", share: 0.1 },
] as const;
type Op = (typeof mix)[number]["op"] | "refresh";
/** Answers each operation may give; anything else is counted and printed as unexpected. */
const expected: Record<Op, number[]> = {
  read: [200],
  refresh: [200],
  // 409 listing_busy and 412 when two writes to one listing overlap.
  patch: [200, 202, 409, 412],
  upsert: [200, 201, 202, 409],
  events: [200],
  create: [201],
};

interface Sample {
  second: number;
  rssMiB: number;
  requests: number;
  perSecond: number;
  p99Ms: number;
  loopP99Ms: number | null;
  loopMaxMs: number | null;
  errors5xx: number;
  noAnswer: number;
  /** Requests not sent because `connections` were all busy: the server fell behind the rate. */
  skipped: number;
}

async function main(cleanup: (step: () => Promise<void>) => void): Promise<number> {
  if (settings.minutes * 60 < 30) throw new Error("SOAK_MINUTES must be at least 0.5: the samples are 10 s apart");
  const runtime = settings.node === "24" ? node24() : currentRuntime();
  if ("unavailable" in runtime) throw new Error(`SOAK_NODE=24: ${runtime.unavailable}`);
  await ensureBuild(log);
  const { throwaway, pg, ctx } = await throwawayDatabase(settings.adminUrl, "soak", log, cleanup);

  // Enough keys that the rate never meets the limit of 300 per key and minute.
  const accountCount = Math.ceil(KeyPool.keysFor(settings.rate * 60) / 10);
  log(`creating ${accountCount} accounts with 10 keys each, seeding ${settings.listingsPerAccount} listings each`);
  const accounts = await createAccounts(ctx, "soak", accountCount);
  const template = await listingTemplate(ctx);
  await seedListings(pg, { template, owners: accounts.map((a) => a.id), first: 1, count: settings.listingsPerAccount * accountCount });
  await pg`analyze listings`;
  const owned = await listingsOf(
    pg,
    accounts.map((a) => a.id),
  );

  mkdirSync(path.dirname(probeFile), { recursive: true });
  rmSync(probeFile, { force: true });
  cleanup(async () => rmSync(probeFile, { force: true }));
  const server = await startNext(
    { DATABASE_URL: throwaway.url, APP_ENV: "sandbox", JOBS_RUNNER: "off", LOG_LEVEL: "error", API_LOG: "on", LOOP_PROBE_FILE: probeFile },
    { runtime, nodeOptions: `--import=${pathToFileURL(path.resolve("bench/loop-probe.mjs")).href}` },
  );
  cleanup(server.stop);
  log(
    `Next.js (${runtime.name}, ${runtime.version}) on ${server.url}, pid ${server.pid}; ${settings.rate} req/s for ${settings.minutes} min`,
  );

  const traffic = new Traffic(server.url, accounts, owned);
  const samples: Sample[] = [];
  const seconds = Math.round(settings.minutes * 60);
  const rssAt = () => rssMiB(server.pid);
  const until = Date.now() + seconds * 1000;
  const takeSample = () => {
    const interval = traffic.takeInterval();
    const loop = lastProbe(server.pid);
    const sample: Sample = {
      second: (samples.length + 1) * settings.sampleSeconds,
      rssMiB: rssAt(),
      requests: interval.latencies.length,
      perSecond: Math.round(interval.latencies.length / settings.sampleSeconds),
      p99Ms: percentile(interval.latencies, 0.99),
      loopP99Ms: loop?.p99 ?? null,
      loopMaxMs: loop?.max ?? null,
      errors5xx: interval.errors5xx,
      noAnswer: interval.noAnswer,
      skipped: interval.skipped,
    };
    samples.push(sample);
    log(`${sampleLine(sample)}`);
  };
  const sampler = setInterval(takeSample, settings.sampleSeconds * 1000);
  await traffic.run(settings.rate, settings.connections, until);
  clearInterval(sampler);
  // The timer and the end of the traffic may both fall on the last 10 s mark.
  if (samples.length < Math.floor(seconds / settings.sampleSeconds)) takeSample();
  await traffic.drain(settings.timeoutMs);

  // The reference: the sample at 20 % of the run (2 minutes of 10), rounded to a whole sample. RSS
  // swings by a third between garbage collections, so the reference value is the highest RSS up to
  // that sample (the warm-up's high-water mark), and every later sample is compared with it.
  const reference = samples[Math.max(0, Math.round((seconds * 0.2) / settings.sampleSeconds) - 1)];
  const referenceRss = Math.max(...samples.filter((s) => s.second <= reference.second).map((s) => s.rssMiB));
  const later = samples.filter((s) => s.second > reference.second);
  const peak = Math.max(...later.map((s) => s.rssMiB), 0);
  const growth = referenceRss > 0 && later.length ? (peak - referenceRss) / referenceRss : 0;
  const fives = Object.entries(traffic.statuses).flatMap(([op, counts]) =>
    Object.entries(counts)
      .filter(([code]) => code.startsWith("5"))
      .map(([code, n]) => `${op} ${code}×${n}`),
  );
  const unexpected = Object.entries(traffic.statuses).flatMap(([op, counts]) =>
    Object.entries(counts)
      .filter(([code]) => !code.startsWith("5") && !expected[op as Op].includes(Number(code)))
      .map(([code, n]) => `${op} ${code}×${n}`),
  );

  console.log(`\n${table(samples, reference, referenceRss)}`);
  console.log(
    `\nanswers: ${Object.entries(traffic.statuses)
      .map(
        ([op, counts]) =>
          `${op} ${Object.entries(counts)
            .map(([c, n]) => `${c}×${n}`)
            .join(" ")}`,
      )
      .join("; ")}`,
  );
  console.log(
    `sent ${traffic.sent} requests in ${seconds} s (${settings.rate} req/s planned), ${traffic.skippedTotal} not sent because ${settings.connections} were in flight, ${traffic.noAnswerTotal} without an answer`,
  );
  console.log(
    `RSS: highest ${referenceRss} MiB up to ${reference.second} s (the reference; ${reference.rssMiB} MiB at ${reference.second} s itself), ` +
      `peak after it ${peak} MiB (${pct(growth)}), last ${samples.at(-1)?.rssMiB} MiB; limit ${pct(settings.rssGrowthLimit)}`,
  );
  if (unexpected.length) console.log(`unexpected answers (not failing the soak): ${unexpected.join(", ")}`);
  const failures = [
    ...(growth > settings.rssGrowthLimit ? [`RSS grew ${pct(growth)} after ${reference.second} s`] : []),
    ...(fives.length ? [`5xx answers: ${fives.join(", ")}`] : []),
    ...(traffic.noAnswerTotal
      ? [
          `${traffic.noAnswerTotal} requests got no answer (${Object.entries(traffic.noAnswerCodes)
            .map(([what, n]) => `${what}×${n}`)
            .join(", ")})`,
        ]
      : []),
  ];
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(
    resultsFile,
    `${JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        machine: { cpus: os.cpus().length, loadAverage: os.loadavg() },
        runtime: { name: runtime.name, version: runtime.version },
        settings: { ...settings, adminUrl: undefined },
        referenceSecond: reference.second,
        referenceRssMiB: referenceRss,
        rssGrowth: Math.round(growth * 1000) / 1000,
        statuses: traffic.statuses,
        noAnswer: traffic.noAnswerCodes,
        samples,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`written to ${path.relative(process.cwd(), resultsFile)}`);
  console.log(failures.length ? `\nFAIL: ${failures.join("; ")}` : "\nPASS");
  return failures.length ? 1 : 0;
}

/** Open-loop mixed traffic over keep-alive connections, each key in turn so that none meets its limit. */
class Traffic {
  readonly statuses: Record<string, Record<string, number>> = {};
  sent = 0;
  skippedTotal = 0;
  noAnswerTotal = 0;
  private inFlight = 0;
  private interval = { latencies: [] as number[], errors5xx: 0, noAnswer: 0, skipped: 0 };
  /** Why requests got no answer, by error code. */
  readonly noAnswerCodes: Record<string, number> = {};
  // At most one socket per request in flight, reused oldest first: under steady traffic none idles
  // until the server's keep-alive timeout (5 s) closes it just as it is reused (ECONNRESET).
  private readonly agent = new Agent({ keepAlive: true, maxSockets: settings.connections, scheduling: "fifo" });
  private readonly keys: { key: string; account: BenchAccount }[];
  private readonly listings = new Map<string, string[]>();
  private readonly etags = new Map<string, string>();
  private readonly cursors = new Map<string, string>();
  private readonly base: URL;
  private turn = 0;
  /** Per account and operation, so that an account's requests of one kind go to its listings (refs) in turn. */
  private readonly counters = new Map<string, number>();

  constructor(url: string, accounts: BenchAccount[], owned: { code: string; accountId: string }[]) {
    this.base = new URL(url);
    this.keys = accounts.flatMap((account) => account.keys.map((key) => ({ key, account })));
    for (const { code, accountId } of owned) this.listings.set(accountId, [...(this.listings.get(accountId) ?? []), code]);
  }

  takeInterval() {
    const taken = this.interval;
    this.interval = { latencies: [], errors5xx: 0, noAnswer: 0, skipped: 0 };
    return taken;
  }

  /** Sends `rate` requests per second until `until`, never more than `connections` at once. */
  async run(rate: number, connections: number, until: number): Promise<void> {
    const start = Date.now();
    let due = 0;
    while (Date.now() < until) {
      const target = Math.floor(((Date.now() - start) / 1000) * rate);
      for (; due < target; due++) {
        if (this.inFlight >= connections) {
          this.skippedTotal++;
          this.interval.skipped++;
          continue;
        }
        void this.one(this.turn++);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs + 1000;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    this.agent.destroy();
  }

  /** The n-th request: its key by turn, its operation by the mix (spread evenly over the turns). */
  private async one(n: number): Promise<void> {
    const { key, account } = this.keys[n % this.keys.length];
    const op = pick((n * 0.618033988749895) % 1);
    const codes = this.listings.get(account.id)!;
    const price = 150_000 + (n % 100_000);
    const next = (what: string) => {
      const counter = `${account.id}:${what}`;
      const value = this.counters.get(counter) ?? 0;
      this.counters.set(counter, value + 1);
      return value;
    };
    switch (op) {
      case "read":
        return void (await this.send("read", "GET", `/api/v1/account/listings/${codes[(next("read") * 7) % codes.length]}`, key));
      case "patch": {
        // The second half of the account's listings is edited, each with If-Match of the version last seen.
        const half = Math.floor(codes.length / 2);
        const code = codes[half + (next("patch") % half)];
        let etag = this.etags.get(code);
        if (!etag) {
          const fresh = await this.send("refresh", "GET", `/api/v1/account/listings/${code}`, key);
          etag = fresh?.etag;
          if (!etag) return;
        }
        const answer = await this.send(
          "patch",
          "PATCH",
          `/api/v1/listings/${code}`,
          key,
          { price },
          { "if-match": etag, "content-type": "application/merge-patch+json" },
        );
        if (answer?.etag) this.etags.set(code, answer.etag);
        if (answer?.status === 412) this.etags.delete(code);
        return;
      }
      case "upsert": {
        const ref = `soak-${account.id.slice(-6)}-${next("upsert") % settings.refsPerAccount}`;
        return void (await this.send("upsert", "PUT", `/api/v1/listings/ref/${ref}`, key, { ...exampleApartment, price }));
      }
      case "events": {
        const after = this.cursors.get(account.id);
        const answer = await this.send("events", "GET", `/api/v1/events?limit=100${after ? `&after=${after}` : ""}`, key);
        const body = answer?.body as { data?: { id: string }[]; meta?: { next: string | null } } | undefined;
        const last = body?.meta?.next ?? body?.data?.at(-1)?.id;
        if (last) this.cursors.set(account.id, last);
        return;
      }
      case "create":
        return void (await this.send("create", "POST", "/api/v1/listings", key, {
          ...exampleApartment,
          price,
          title: `Soak ${n}: apartament 3 camere`,
        }));
    }
  }

  private send(op: Op, method: string, pathname: string, key: string, body?: unknown, headers: Record<string, string> = {}) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const begun = performance.now();
    this.inFlight++;
    this.sent++;
    return new Promise<{ status: number; etag?: string; body: unknown } | undefined>((resolve) => {
      let settled = false;
      const settle = (answer: { status: number; etag?: string; body: unknown } | undefined, error?: Error) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        this.interval.latencies.push(performance.now() - begun);
        if (!answer) {
          const code = (error as { code?: string } | undefined)?.code ?? error?.message ?? "unknown";
          this.noAnswerCodes[`${op} ${code}`] = (this.noAnswerCodes[`${op} ${code}`] ?? 0) + 1;
          this.noAnswerTotal++;
          this.interval.noAnswer++;
        } else {
          const counts = (this.statuses[op] ??= {});
          counts[answer.status] = (counts[answer.status] ?? 0) + 1;
          if (answer.status >= 500) this.interval.errors5xx++;
        }
        resolve(answer);
      };
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path: pathname,
          agent: this.agent,
          headers: {
            ...bearer(key),
            ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            } catch {
              parsed = undefined;
            }
            settle({ status: res.statusCode ?? 0, etag: res.headers.etag, body: parsed });
          });
          res.on("error", (error) => settle(undefined, error));
        },
      );
      req.setTimeout(settings.timeoutMs, () => req.destroy(new Error("timeout")));
      req.on("error", (error) => settle(undefined, error));
      req.end(payload);
    });
  }
}

/** The operation at a point `u` of [0, 1): the mix's shares laid end to end. */
function pick(u: number): (typeof mix)[number]["op"] {
  let sum = 0;
  for (const { op, share } of mix) if (u < (sum += share)) return op;
  return mix[0].op;
}

function rssMiB(pid: number): number {
  try {
    const kib = Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1] ?? 0);
    return Math.round(kib / 102.4) / 10;
  } catch {
    return 0;
  }
}

/** The probe's latest window (10 s) of event-loop delay in the server process. */
function lastProbe(pid: number): { p99: number; max: number } | undefined {
  try {
    const lines = readFileSync(probeFile, "utf8").trim().split("\n").reverse();
    for (const line of lines) {
      const sample = JSON.parse(line) as { pid: number; p99: number; max: number };
      if (sample.pid === pid) return sample;
    }
  } catch {
    // No window written yet.
  }
  return undefined;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] * 10) / 10;
}

const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;

function sampleLine(s: Sample): string {
  return `${String(s.second).padStart(5)} s  RSS ${s.rssMiB.toFixed(1).padStart(6)} MiB  ${String(s.perSecond).padStart(4)} req/s  p99 ${s.p99Ms.toFixed(1).padStart(6)} ms  loop p99 ${fmtMs(s.loopP99Ms)} max ${fmtMs(s.loopMaxMs)}  5xx ${s.errors5xx}  no answer ${s.noAnswer}  not sent ${s.skipped}`;
}

const fmtMs = (ms: number | null) => (ms === null ? "     —" : `${ms.toFixed(1).padStart(6)} ms`);

function table(samples: Sample[], reference: Sample, referenceRss: number): string {
  const header = ["s", "RSS MiB", "vs ref max", "req/s", "p99 ms", "loop p99 ms", "loop max ms", "5xx", "no answer", "not sent"];
  const rows = samples.map((s) => [
    `${s.second}${s === reference ? " (ref)" : ""}`,
    s.rssMiB.toFixed(1),
    s.second <= reference.second ? "" : pct((s.rssMiB - referenceRss) / referenceRss),
    String(s.perSecond),
    s.p99Ms.toFixed(1),
    s.loopP99Ms?.toFixed(1) ?? "—",
    s.loopMaxMs?.toFixed(1) ?? "—",
    String(s.errors5xx),
    String(s.noAnswer),
    String(s.skipped),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

await runScript(
  "soak",
  log,
  options.fleet
    ? (cleanup) => fleetSoak({ minutes: settings.minutes, capacity: positiveOption("capacity", options.capacity) }, log, cleanup)
    : main,
);
