import os from "node:os";
import { KeyPool } from "./key-pool";
import { measure, plannedRequests, type Figure, type LoadPlan } from "./load";
import { measurementLine, mergeTurns, type Measurement } from "./report";
import type { RunningServer } from "./servers";

/** The knobs of the load runs (bench/run.ts reads them from the environment). */
export interface LoadSettings {
  /** Measured seconds of a figure, split between its turns. */
  duration: number;
  /** Turns per side of a figure (`inTurns`), rounds of `sideBySide`. */
  turns: number;
  /** Seconds of warm-up before a run. */
  warmup: number;
  connections: number;
  /** The rate the key pools are sized for. */
  maxRate: number;
  /** Requests of warm-up before a run measured by its number of requests. */
  listWarmup: number;
}

/**
 * Accounts of 10 keys each a pool of keys needs for the longest run: a full one, or a first turn with
 * its longer warm-up (`inTurns`), at `maxRate` without a 429.
 */
export const accountsPerPool = (settings: Pick<LoadSettings, "duration" | "warmup" | "maxRate">): number =>
  Math.ceil(KeyPool.keysFor(plannedRequests({ duration: settings.duration, warmup: settings.warmup * 3 }, settings.maxRate)) / 10);

/** The key pools a server settles with, by figure (none for a server without a rate limit). */
export type SettlingPools = Record<"ping" | "read" | "patch", KeyPool | undefined>;

/** One side of a figure's turns: what to call it, which server, which keys, which requests, which statuses it may answer. */
export type Side = [
  name: string,
  server: RunningServer,
  pool: KeyPool | undefined,
  requests: () => LoadPlan["requestAt"],
  expected: number[],
];

/**
 * The load runs of one benchmark: each measurement printed and kept in `measurements`. `planOf` adds
 * to a server's load plans (its pooler's process, the database whose sessions' CPU is counted).
 */
export function loadRuns(
  settings: LoadSettings,
  log: (line: string) => void,
  planOf: (server: RunningServer) => Partial<LoadPlan> = () => ({}),
) {
  const measurements: Measurement[] = [];
  /** A load's `ready` when it runs alone. */
  const alone = async () => {};
  const record = (measurement: Measurement) => {
    measurements.push(measurement);
    console.log(measurementLine(measurement));
  };
  /** One load run; `seconds` replaces the measured duration (a turn), `amount` measures a number of requests instead. */
  const load = async (
    name: string,
    server: RunningServer,
    pool: KeyPool | undefined,
    requestAt: LoadPlan["requestAt"],
    expected: number[],
    size: { amount?: number; seconds?: number; warmup?: number } = {},
    /** Awaited once the key pool lets the load start, before it starts (side by side: the other sides' start). */
    ready: () => Promise<void> = alone,
  ): Promise<Measurement> => {
    const plan: LoadPlan = {
      ...planOf(server),
      url: server.url,
      requestAt,
      connections: settings.connections,
      serverPid: server.pid,
      // Side by side (`ready` given) both loads share the database, so its CPU is no one's alone.
      databaseCpu: ready === alone,
      ...(size.amount
        ? { duration: 0, amount: size.amount, warmup: settings.listWarmup }
        : { duration: size.seconds ?? settings.duration, warmup: size.warmup ?? settings.warmup }),
    };
    const fullName = `${server.runtime.name}  ${name}`;
    log(`measuring ${fullName}${size.seconds ? ` (a turn of ${size.seconds} s)` : ""}`);
    const loadAverage = os.loadavg()[0];
    const start = async () => {
      await ready();
      return measure(plan);
    };
    const figure = pool ? await pool.run(plannedRequests(plan, settings.maxRate), log, start) : await start();
    // Lets the API log's buffered writes and the last connections settle before the next run.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { name: fullName, figure, expected, loadAverage };
  };
  const run = async (...args: Parameters<typeof load>): Promise<Figure> => {
    const measurement = await load(...args);
    record(measurement);
    return measurement.figure;
  };
  /**
   * Figures taken in turns, A B C, C B A, A B C, C B A (`BENCH_TURNS` rounds, the measured seconds split
   * between them), each turn after its own warm-up, each side's turns then merged (mergeTurns). The
   * ratios with targets divide one server's figure by another's, and this machine's speed moves by up
   * to 2× within minutes and sometimes within seconds (the same ceiling read: 1 272 then 568 req/s in
   * two turns 10 s apart): figures taken minutes apart measured that drift as much as the servers;
   * turns in mirrored order give a steady drift to every side alike, and more, shorter rounds spread a
   * sudden swing over every side instead of one. `requests` is asked once per turn, so that each PATCH
   * turn writes prices of its own. A side's first turn warms up three times as long: a server's first
   * thousands of requests run code V8 has not optimized yet (a fresh ceiling app spent 1 569 µs of CPU
   * per ping in its first turn and 1 082 µs in its second), and the servers come to a figure with
   * unequal pasts (the product has served the floor, the tracing-on server nothing). Later turns warm
   * up a third as long: the server is warm, the new connections are what the warm-up is for.
   */
  const inTurns = async (...sides: Side[]): Promise<Figure[]> => {
    const seconds = Math.max(1, Math.round(settings.duration / settings.turns));
    const turn = async ([name, server, pool, requests, expected]: Side, warmup: number) => {
      const measurement = await load(name, server, pool, requests(), expected, { seconds, warmup });
      log(`  turn: ${measurementLine(measurement)}`);
      return measurement;
    };
    const turns: Measurement[][] = sides.map(() => []);
    for (let round = 0; round < settings.turns; round++) {
      const order = sides.map((_, i) => i);
      if (round % 2 === 1) order.reverse();
      const warmup = round === 0 ? settings.warmup * 3 : Math.max(1, Math.round(settings.warmup / 3));
      for (const i of order) turns[i].push(await turn(sides[i], warmup));
    }
    return turns.map((measurements) => {
      const merged = mergeTurns(measurements);
      record(merged);
      return merged.figure;
    });
  };

  /**
   * Two servers measured at the same time, each under its own load, in `BENCH_TURNS` rounds of the
   * turns' length (each after a warm-up of a third of `BENCH_WARMUP`), each side's rounds then merged.
   * For two servers that do the same database work (tracing on and off) this cancels what turns only
   * spread: every swing of the machine falls on both sides in the same second. They share the cores
   * fairly, so the ratio of their figures is the ratio of their costs. Not for the product against the
   * ceiling app: tried on 2026-11-27, its rounds gave the product's ping 0.83 to 1.56 of the ceiling's,
   * which the product, doing the ceiling's work and more, cannot be; turns spread the swings instead.
   * The sides' `requests` must write to different listings, or they would refuse each other 409.
   */
  const sideBySide = async (...sides: Side[]): Promise<Figure[]> => {
    const seconds = Math.max(1, Math.round(settings.duration / settings.turns));
    const warmup = Math.max(1, Math.round(settings.warmup / 3));
    const rounds: Measurement[][] = sides.map(() => []);
    for (let round = 0; round < settings.turns; round++) {
      const allReady = barrier(sides.length);
      const measured = await Promise.all(
        sides.map(([name, server, pool, requests, expected]) =>
          load(name, server, pool, requests(), expected, { seconds, warmup }, allReady),
        ),
      );
      measured.forEach((measurement, i) => {
        log(`  side by side: ${measurementLine(measurement)}`);
        rounds[i].push(measurement);
      });
    }
    return rounds.map((measurements) => {
      const merged = mergeTurns(measurements);
      record(merged);
      return merged.figure;
    });
  };
  /**
   * A server serves each figure's own requests (the ping's, the read's, the PATCH's) for `seconds` each,
   * unmeasured, before any figure: a server's CPU per request goes on falling long after its first
   * thousands of requests, and a figure measured while one server is still settling measures its past.
   * Without this the ceiling app's read came out cheaper than its own ping (913 against 1 303 µs of CPU a
   * request), the ping being its first work with the database; served long enough, each of its reads
   * costs more than a ping, as it must.
   */
  const settle = async (
    name: string,
    server: RunningServer,
    pools: SettlingPools,
    requests: { ping: LoadPlan["requestAt"]; read: LoadPlan["requestAt"]; patch: () => LoadPlan["requestAt"] },
    seconds: number,
  ): Promise<void> => {
    const size = { seconds, warmup: 1 };
    await load(`GET /api/v1/ping (${name}: settling)`, server, pools.ping, requests.ping, [200], size);
    await load(`GET /api/v1/account/listings/{code} (${name}: settling)`, server, pools.read, requests.read, [200], size);
    await load(`PATCH /api/v1/listings/{code} (${name}: settling)`, server, pools.patch, requests.patch(), [200, 409], size);
  };
  return { measurements, record, load, run, inTurns, sideBySide, settle };
}

/** A promise for each of `count` parties that settles once all of them have asked for theirs. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === count) release();
    return all;
  };
}
