/**
 * `npm run soak -- --fleet`: the soak through the fleet `npm run test:fleet` runs (tests/fleet/support.ts:
 * two web instances of the release bundle and a worker behind HAProxy, PostgreSQL of its own with a hot
 * standby behind PgBouncer, Redis, Vercel Blob's fake). It measures the fleet's capacity through the
 * balancer first (a closed loop of the mix, `--capacity` skips it), then sends 60 % of it for `--minutes`
 * (30): reads, catalog reads (from the standby), PATCHes with `If-Match`, upserts, creations,
 * publications (each delivered to the account's webhook by the worker), event pages, long polls and
 * bulk imports, with a PostgreSQL restart at 40 % of the run and a rolling restart of the web
 * instances at 60 %. Every 10 s it samples the requests answered, their p99 (long polls apart: they wait
 * for an event by design), each process's RSS and open sockets and PostgreSQL's client sessions. At the end every acknowledged write is read back, every publication and import must have
 * reached the webhook, and it fails on any 5xx but the 503s (with `Retry-After`) around the PostgreSQL
 * restart, on any request without an answer, and when RSS or connections grew (start against end).
 */
import { readdirSync, readFileSync, readlinkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { operatorContext } from "@/lib/base/context";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { startFleet, type Fleet } from "@/tests/fleet/support";
import { startHttpServer } from "@/tests/support/local-http-server";
import type { Cleanup } from "./lifecycle";
import { bearer } from "./requests";
import { createAccounts, listingsOf, listingTemplate, seedListings, type BenchAccount } from "./seed";
import { ensureReleaseBundle } from "./servers";

export interface FleetSoakSettings {
  minutes: number;
  /** Requests a second the fleet serves; measured through the balancer when not given. */
  capacity?: number;
}

const share = 0.6;
const sampleSeconds = 10;
const accountCount = 8;
const listingsPerAccount = 200;
const longPollers = 4;
const importEverySeconds = 20;
/** How much larger RSS (each role's sum) and connections may be at the end than after the warm-up. */
const growthLimit = 0.25;
const resultsFile = path.resolve(".data/bench/fleet-soak.json");
const logDir = path.resolve(".data/bench/fleet-soak-logs");

const mix = [
  { op: "read", share: 0.3 },
  { op: "catalog", share: 0.15 },
  { op: "patch", share: 0.2 },
  { op: "upsert", share: 0.1 },
  { op: "create", share: 0.1 },
  { op: "publish", share: 0.05 },
  { op: "events", share: 0.1 },
] as const;
type MixOp = (typeof mix)[number]["op"];
const pick = (u: number): MixOp => {
  let sum = 0;
  for (const { op, share: part } of mix) if (u < (sum += part)) return op;
  return mix[0].op;
};
/** Answers each operation may give besides the restart's 503s; anything else fails the soak. */
const expected: Record<string, number[]> = {
  read: [200],
  catalog: [200, 404],
  // 409 listing_busy and 412 when two writes to one listing overlap.
  patch: [200, 202, 409, 412],
  upsert: [200, 201, 202, 409],
  create: [201],
  publish: [200, 409],
  events: [200],
  longpoll: [200],
  import: [202, 409],
  readback: [200],
};

interface Answer {
  status: number;
  retryAfter: string | null;
  etag: string | null;
  body: unknown;
}

interface Sample {
  second: number;
  requests: number;
  p99Ms: number;
  unavailable: number;
  otherErrors: number;
  noAnswer: number;
  webRssMiB: number;
  workerRssMiB: number;
  webSockets: number;
  workerSockets: number;
  postgresSessions: number;
}

export async function fleetSoak(settings: FleetSoakSettings, log: (line: string) => void, cleanup: Cleanup): Promise<number> {
  await ensureReleaseBundle(log);
  const deliveries = new Map<string, string>();
  const receiver = await startHttpServer((request, response) => {
    const body = JSON.parse(request.body) as { type: string; data: { code?: string; id?: string } };
    deliveries.set(request.headers["webhook-id"] as string, `${body.type} ${body.data.code ?? body.data.id}`);
    response.writeHead(204).end();
  });
  cleanup(() => receiver.close());
  log("starting the fleet: a PostgreSQL cluster and its standby, PgBouncer, two web instances, a worker, HAProxy");
  rmSync(logDir, { recursive: true, force: true });
  const fleet = await startFleet("soak", { logDir });
  log(`each process's output: ${path.relative(process.cwd(), logDir)}/`);
  cleanup(() => fleet.stop());

  const database = await openDatabase({ url: fleet.databaseUrl });
  cleanup(() => database.close());
  const pg = postgres(fleet.databaseUrl, { max: 2, onnotice: () => {} });
  cleanup(() => pg.end({ timeout: 5 }));
  const ctx = operatorContext(database);
  log(`creating ${accountCount} accounts with 10 keys each, ${listingsPerAccount} listings each, a webhook each`);
  const accounts = await createAccounts(ctx, "fleet-soak", accountCount);
  await seedListings(pg, {
    template: await listingTemplate(ctx),
    owners: accounts.map((account) => account.id),
    first: 1,
    count: listingsPerAccount * accountCount,
  });
  await pg`analyze listings`;
  const owned = await listingsOf(
    pg,
    accounts.map((account) => account.id),
  );
  accounts.forEach((_, index) =>
    fleet.cli([
      "webhook:create",
      "--email",
      `bench-fleet-soak-${index}@bench.example.com`,
      "--url",
      `${receiver.origin}/hooks`,
      "--events",
      "listing.published,import.completed",
    ]),
  );

  const traffic = new FleetTraffic(fleet, accounts, owned);
  let capacity = settings.capacity;
  if (!capacity) {
    log("measuring the capacity through the balancer: 32 clients in a closed loop of the mix for 30 s");
    capacity = await traffic.closedLoop(32, 30_000);
    traffic.reset();
  }
  const rate = Math.max(1, Math.round(capacity * share));
  const keyBudget = traffic.keyCount * 270;
  if (rate * 60 > keyBudget) throw new Error(`${rate} requests a second exceed the keys' limits (${keyBudget} a minute)`);
  log(`capacity ${capacity} requests a second; soaking at ${rate} (${share * 100} %) for ${settings.minutes} min`);

  const seconds = Math.round(settings.minutes * 60);
  const begun = Date.now();
  const until = begun + seconds * 1000;
  const samples: Sample[] = [];
  const takeSample = async () => {
    const interval = traffic.takeInterval();
    const processes = fleet.web.map((web) => web.pid);
    const sample: Sample = {
      second: Math.round((Date.now() - begun) / 1000),
      requests: interval.requests,
      p99Ms: percentile(interval.latencies, 0.99),
      unavailable: interval.unavailable,
      otherErrors: interval.otherErrors,
      noAnswer: interval.noAnswer,
      webRssMiB: round(processes.reduce((sum, pid) => sum + rssMiB(pid), 0)),
      workerRssMiB: rssMiB(fleet.worker().pid),
      webSockets: processes.reduce((sum, pid) => sum + sockets(pid), 0),
      workerSockets: sockets(fleet.worker().pid),
      postgresSessions: await fleet.cluster.clientSessions().catch(() => -1),
    };
    samples.push(sample);
    log(
      `${String(sample.second).padStart(5)} s  ${String(Math.round(sample.requests / sampleSeconds)).padStart(4)} req/s  p99 ${sample.p99Ms} ms  503 ${sample.unavailable}  other 5xx ${sample.otherErrors}  no answer ${sample.noAnswer}  RSS web ${sample.webRssMiB} worker ${sample.workerRssMiB} MiB  sockets web ${sample.webSockets} worker ${sample.workerSockets}  PostgreSQL sessions ${sample.postgresSessions}`,
    );
  };
  const sampler = setInterval(() => void takeSample(), sampleSeconds * 1000);

  const faults: { what: string; from: number; to: number }[] = [];
  const fault = async (at: number, what: string, run: () => Promise<unknown>) => {
    await new Promise((resolve) => setTimeout(resolve, begun + at * seconds * 1000 - Date.now()));
    const from = Date.now();
    log(`${what}…`);
    await run();
    faults.push({ what, from, to: Date.now() });
    log(`${what}: done in ${((Date.now() - from) / 1000).toFixed(1)} s`);
  };
  let exitCodes: (number | null)[] = [];
  try {
    await Promise.all([
      traffic.openLoop(rate, until),
      traffic.longPolls(longPollers, until),
      traffic.imports(importEverySeconds, until),
      fault(0.4, "PostgreSQL restart (pg_ctl restart -m fast)", () => fleet.cluster.restart()).then(() =>
        fault(0.6, "rolling restart of the web instances", async () => (exitCodes = await fleet.rollingRestart())),
      ),
    ]);
  } finally {
    // Also when a fault fails the soak: samples of a fleet no longer driven say nothing.
    clearInterval(sampler);
  }
  await takeSample();

  log("reading back every acknowledged write, waiting for the imports and the deliveries");
  const readBack = await traffic.readBack();
  const expectedDeliveries = [...traffic.published]
    .map((code) => `listing.published ${code}`)
    .concat(readBack.importsDone.map((id) => `import.completed ${id}`));
  const delivered = () => new Set(deliveries.values());
  for (const deadline = Date.now() + 180_000; Date.now() < deadline && expectedDeliveries.some((d) => !delivered().has(d));)
    await new Promise((resolve) => setTimeout(resolve, 1000));
  const undelivered = expectedDeliveries.filter((d) => !delivered().has(d));

  // The 503s allowed: from the PostgreSQL restart's start to 10 s after it ended.
  const restart = faults[0];
  const strayUnavailable = traffic.unavailableAt.filter((at) => at < restart.from || at > restart.to + 10_000).length;
  const warm = samples[Math.min(samples.length - 1, Math.max(0, Math.round(0.2 * samples.length) - 1))];
  const last = samples.at(-1)!;
  const growth = (from: number, to: number) => (from > 0 ? (to - from) / from : 0);
  const unexpected = Object.entries(traffic.statuses).flatMap(([op, counts]) =>
    Object.entries(counts)
      .filter(([code]) => code !== "503" && !expected[op].includes(Number(code)))
      .map(([code, n]) => `${op} ${code}×${n}`),
  );
  const checks = {
    "no 5xx but the restart's 503s": unexpected.filter((u) => / 5\d\d×/.test(u)).length === 0 && strayUnavailable === 0,
    "every 503 with Retry-After": traffic.unavailableWithoutRetryAfter === 0,
    "every request answered": traffic.noAnswerTotal === 0,
    "no other unexpected answer": unexpected.length === 0,
    "every acknowledged write read back": readBack.missing.length === 0,
    "every publication and import delivered": undelivered.length === 0,
    "web instances exited 0 on SIGTERM": exitCodes.every((code) => code === 0),
    "RSS flat (web, worker)":
      growth(warm.webRssMiB, last.webRssMiB) <= growthLimit && growth(warm.workerRssMiB, last.workerRssMiB) <= growthLimit,
    "connections flat (sockets, PostgreSQL sessions)":
      last.webSockets <= warm.webSockets * (1 + growthLimit) + 4 &&
      last.workerSockets <= warm.workerSockets * (1 + growthLimit) + 4 &&
      last.postgresSessions <= warm.postgresSessions * (1 + growthLimit) + 4,
  };
  const result = {
    finishedAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map(round) },
    settings: { minutes: settings.minutes, capacity, measured: !settings.capacity, rate, share },
    sent: traffic.sent,
    statuses: traffic.statuses,
    noAnswer: traffic.noAnswerCodes,
    unavailable: {
      total: traffic.unavailableAt.length,
      outsideTheRestart: strayUnavailable,
      withoutRetryAfter: traffic.unavailableWithoutRetryAfter,
    },
    faults: faults.map(({ what, from, to }) => ({ what, atSecond: Math.round((from - begun) / 1000), seconds: round((to - from) / 1000) })),
    readBack: { checked: readBack.checked, missing: readBack.missing.slice(0, 20), importsDone: readBack.importsDone.length },
    deliveries: { expected: expectedDeliveries.length, received: deliveries.size, undelivered: undelivered.slice(0, 20) },
    warmSample: warm,
    lastSample: last,
    samples,
    checks,
  };
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ ...result, samples: undefined }, null, 2));
  console.log(`written to ${path.relative(process.cwd(), resultsFile)}`);
  const failed = Object.entries(checks).filter(([, passed]) => !passed);
  console.log(failed.length ? `\nFAIL: ${failed.map(([check]) => check).join("; ")}` : "\nPASS");
  return failed.length ? 1 : 0;
}

/** The soak's clients: keys in turn, each account's own listings, what was acknowledged kept for the read-back. */
class FleetTraffic {
  readonly statuses: Record<string, Record<string, number>> = {};
  readonly noAnswerCodes: Record<string, number> = {};
  readonly unavailableAt: number[] = [];
  unavailableWithoutRetryAfter = 0;
  noAnswerTotal = 0;
  sent = 0;
  /** Listings created (201), to read back and to publish. */
  readonly created: { code: string; key: string }[] = [];
  readonly published = new Set<string>();
  /** Per listing: the ETag its last acknowledged write answered, and whether a write without a definite outcome followed. */
  private readonly written = new Map<string, { key: string; etag: string; uncertainAfter: boolean }>();
  private readonly upserted = new Map<string, string>();
  private readonly importsSent: { id: string; key: string }[] = [];
  private readonly keys: { key: string; account: BenchAccount }[];
  private readonly listings = new Map<string, string[]>();
  private readonly cursors = new Map<string, string>();
  /** The interval's answers; `latencies` leaves out the long polls, which wait for an event by design. */
  private interval = { requests: 0, latencies: [] as number[], unavailable: 0, otherErrors: 0, noAnswer: 0 };
  private turn = 0;
  private inFlight = 0;

  constructor(
    private readonly fleet: Fleet,
    accounts: BenchAccount[],
    owned: { code: string; accountId: string }[],
  ) {
    this.keys = accounts.flatMap((account) => account.keys.map((key) => ({ key, account })));
    for (const { code, accountId } of owned) this.listings.set(accountId, [...(this.listings.get(accountId) ?? []), code]);
  }

  get keyCount() {
    return this.keys.length;
  }

  takeInterval() {
    const taken = this.interval;
    this.interval = { requests: 0, latencies: [], unavailable: 0, otherErrors: 0, noAnswer: 0 };
    return taken;
  }

  /** Forgets the capacity measurement's answers (its writes stay, and are read back). */
  reset() {
    for (const key of Object.keys(this.statuses)) delete this.statuses[key];
    this.takeInterval();
  }

  /** `clients` clients sending the mix back to back for `ms`: the requests answered a second. */
  async closedLoop(clients: number, ms: number): Promise<number> {
    const until = Date.now() + ms;
    let answered = 0;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < until) if (await this.one(this.turn++)) answered++;
      }),
    );
    return Math.round(answered / (ms / 1000));
  }

  /** `rate` requests a second until `until`, whatever the answers take, at most 256 in flight. */
  async openLoop(rate: number, until: number): Promise<void> {
    const start = Date.now();
    let due = 0;
    while (Date.now() < until) {
      for (const target = Math.floor(((Date.now() - start) / 1000) * rate); due < target; due++)
        if (this.inFlight < 256) void this.one(this.turn++);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** `count` clients each waiting for its account's next event (`GET /events?wait=10`) again and again. */
  async longPolls(count: number, until: number): Promise<void> {
    await Promise.all(
      Array.from({ length: count }, async (_, client) => {
        const { key, account } = this.keys[client * 10];
        while (Date.now() < until) {
          const after = this.cursors.get(`poll ${account.id}`);
          const answer = await this.send("longpoll", "GET", `/events?wait=10&limit=100${after ? `&after=${after}` : ""}`, key);
          const body = answer?.body as { data?: { id: string }[]; meta?: { next: string | null } } | undefined;
          const last = body?.meta?.next ?? body?.data?.at(-1)?.id;
          if (last) this.cursors.set(`poll ${account.id}`, last);
          if (!answer || answer.status !== 200) await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }),
    );
  }

  /** A bulk import of 5 lines every `everySeconds`, the accounts taking turns. */
  async imports(everySeconds: number, until: number): Promise<void> {
    for (let n = 0; Date.now() + everySeconds * 1000 < until; n++) {
      await new Promise((resolve) => setTimeout(resolve, everySeconds * 1000));
      const { key, account } = this.keys[(n * 10 + 1) % this.keys.length];
      const lines = Array.from({ length: 5 }, (_, line) =>
        JSON.stringify({ ...exampleApartment, external_ref: `imp-${account.id.slice(-6)}-${n}-${line}`, price: 120_000 + n }),
      );
      const answer = await this.send("import", "POST", "/listings/imports", key, lines.join("\n"), {
        "content-type": "application/x-ndjson",
      });
      if (answer?.status === 202) this.importsSent.push({ id: (answer.body as { data: { id: string } }).data.id, key });
    }
  }

  /** Reads back every acknowledged write; waits for the imports to end. */
  async readBack(): Promise<{ checked: number; missing: string[]; importsDone: string[] }> {
    const missing: string[] = [];
    let checked = 0;
    for (const { code, key } of this.created) {
      checked++;
      if ((await this.send("readback", "GET", `/account/listings/${code}`, key))?.status !== 200) missing.push(`created ${code}`);
    }
    for (const [code, { key, etag, uncertainAfter }] of this.written) {
      checked++;
      const answer = await this.send("readback", "GET", `/account/listings/${code}`, key);
      if (answer?.status !== 200 || (answer.etag !== etag && !uncertainAfter)) missing.push(`patched ${code}: ${answer?.etag} not ${etag}`);
    }
    for (const [ref, key] of this.upserted) {
      checked++;
      if ((await this.send("readback", "GET", `/account/listings/ref/${ref}`, key))?.status !== 200) missing.push(`upserted ${ref}`);
    }
    const importsDone: string[] = [];
    for (const { id, key } of this.importsSent) {
      checked++;
      for (const deadline = Date.now() + 120_000; ;) {
        const answer = await this.send("readback", "GET", `/listings/imports/${id}`, key);
        const status = (answer?.body as { data?: { status: string; lines: { done: number; total: number } } })?.data;
        if (status?.status === "completed" && status.lines.done === status.lines.total) {
          importsDone.push(id);
          break;
        }
        if (Date.now() > deadline || (status && !["queued", "running"].includes(status.status))) {
          missing.push(`import ${id}: ${status?.status}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    return { checked, missing, importsDone };
  }

  /** The n-th request of the mix; true when it was answered. */
  private async one(n: number): Promise<boolean> {
    const { key, account } = this.keys[n % this.keys.length];
    const codes = this.listings.get(account.id)!;
    const price = 150_000 + (n % 100_000);
    switch (pick((n * 0.618033988749895) % 1)) {
      case "read":
        return !!(await this.send("read", "GET", `/account/listings/${codes[(n * 7) % codes.length]}`, key));
      case "catalog":
        return !!(await this.send(
          "catalog",
          "GET",
          `/listings/${[...this.published][n % Math.max(1, this.published.size)] ?? codes[0]}`,
          key,
        ));
      case "patch": {
        // The second half of the account's seeded listings, each with If-Match of the version last acknowledged.
        const half = Math.floor(codes.length / 2);
        const code = codes[half + (n % half)];
        const known = this.written.get(code)?.etag ?? (await this.send("read", "GET", `/account/listings/${code}`, key))?.etag;
        if (!known) return false;
        const answer = await this.send("patch", "PATCH", `/listings/${code}`, key, JSON.stringify({ price }), {
          "if-match": known,
          "content-type": "application/merge-patch+json",
        });
        if (answer && answer.status < 300 && answer.etag) this.written.set(code, { key, etag: answer.etag, uncertainAfter: false });
        else if (!answer || answer.status >= 500) {
          const previous = this.written.get(code);
          if (previous) previous.uncertainAfter = true;
        } else if (answer.status === 412) this.written.delete(code);
        return !!answer;
      }
      case "upsert": {
        const ref = `soak-${account.id.slice(-6)}-${n % 50}`;
        const answer = await this.send("upsert", "PUT", `/listings/ref/${ref}`, key, JSON.stringify({ ...exampleApartment, price }));
        if (answer && answer.status < 300) this.upserted.set(ref, key);
        return !!answer;
      }
      case "create": {
        const answer = await this.send(
          "create",
          "POST",
          "/listings",
          key,
          JSON.stringify({ ...exampleApartment, price, title: `Soak ${n}: apartament 3 camere` }),
        );
        if (answer?.status === 201) this.created.push({ code: (answer.body as { data: { code: string } }).data.code, key });
        return !!answer;
      }
      case "publish": {
        const next = this.created.find(({ code, key: owner }) => owner === key && !this.published.has(code));
        if (!next) return !!(await this.send("read", "GET", `/account/listings/${codes[n % codes.length]}`, key));
        this.published.add(next.code);
        const answer = await this.send(
          "publish",
          "POST",
          `/sandbox/listings/${next.code}/moderation`,
          key,
          JSON.stringify({ decision: "approve" }),
        );
        if (answer?.status !== 200) this.published.delete(next.code);
        return !!answer;
      }
      case "events": {
        const after = this.cursors.get(account.id);
        const answer = await this.send("events", "GET", `/events?limit=100${after ? `&after=${after}` : ""}`, key);
        const body = answer?.body as { data?: { id: string }[]; meta?: { next: string | null } } | undefined;
        const last = body?.meta?.next ?? body?.data?.at(-1)?.id;
        if (last) this.cursors.set(account.id, last);
        return !!answer;
      }
    }
  }

  private async send(
    op: string,
    method: string,
    route: string,
    key: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<Answer | undefined> {
    const begun = performance.now();
    this.sent++;
    this.inFlight++;
    try {
      const response = await fetch(`${this.fleet.origin}/api/v1${route}`, {
        method,
        body,
        headers: { ...bearer(key), ...(body ? { "content-type": "application/json" } : {}), ...headers },
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      const answer: Answer = {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        etag: response.headers.get("etag"),
        body: text ? JSON.parse(text) : undefined,
      };
      const counts = (this.statuses[op] ??= {});
      counts[answer.status] = (counts[answer.status] ?? 0) + 1;
      if (answer.status === 503) {
        this.unavailableAt.push(Date.now());
        this.interval.unavailable++;
        if (!(Number(answer.retryAfter) > 0)) this.unavailableWithoutRetryAfter++;
      } else if (answer.status >= 500) this.interval.otherErrors++;
      return answer;
    } catch (error) {
      const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
      this.noAnswerCodes[`${op} ${code}`] = (this.noAnswerCodes[`${op} ${code}`] ?? 0) + 1;
      this.noAnswerTotal++;
      this.interval.noAnswer++;
      return undefined;
    } finally {
      this.inFlight--;
      this.interval.requests++;
      if (op !== "longpoll") this.interval.latencies.push(performance.now() - begun);
    }
  }
}

const round = (x: number) => Math.round(x * 10) / 10;

function rssMiB(pid: number): number {
  try {
    return round(Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** The process's open sockets (TCP and Unix), from its file descriptors. */
function sockets(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:");
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]);
}
