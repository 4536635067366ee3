import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";

/** One HTTP request of a load run; `requestAt(n)` gives the n-th request sent, across all connections. */
export interface LoadRequest {
  method: "GET" | "PATCH" | "PUT";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadPlan {
  url: string;
  requestAt: (n: number) => LoadRequest;
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  duration: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Seconds (or, with `amount`, requests) sent first and not measured: JIT, pools and caches warm up. */
  warmup: number;
  /** The server's process, whose CPU time per answered request the figure reports. */
  serverPid?: number;
  /**
   * Also report this machine's PostgreSQL CPU per answered request (`databaseCpuUs`): only when this
   * load is the only one on the database, since every session's time is counted.
   */
  databaseCpu?: boolean;
  /**
   * With `databaseCpu`: count only the sessions on this database (by their process title), not every
   * `postgres` process, so that other databases' work on a shared server stays out of the figure
   * (PostgreSQL's background processes, the WAL writer's share of the commits included, are then left out).
   */
  databaseName?: string;
  /** A connection pooler's process (PgBouncer) between the server and PostgreSQL, whose CPU per answered request the figure reports. */
  poolerPid?: number;
}

export interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  seconds: number;
  /** Responses counted by status code, e.g. `{ "200": 31000 }`. */
  statuses: Record<string, number>;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /**
   * CPU time (user + system) the server's process spent per answered request during the measured
   * run, in µs. Unlike req/s it hardly moves when other work shares the machine: the work a request
   * costs stays the same when it has to wait for a core. The database's own CPU is not in it.
   */
  serverCpuUs?: number;
  /**
   * `serverCpuUs` split by the server's threads, in µs per request: `main` (JavaScript, and the
   * garbage collector's work on that thread), `V8` (V8's helper threads: concurrent marking and
   * sweeping, optimizing compilation), `other` (libuv's pool and the rest).
   */
  serverThreadsUs?: Record<ThreadGroup, number>;
  /**
   * CPU time (user + system) of this machine's PostgreSQL processes per answered request during the
   * measured run, in µs: the database's side of the request's cost, which `serverCpuUs` leaves out
   * (the API log's rows, for instance). Every session's and background process's time counts, so it
   * is only taken when one load runs at a time, and only when PostgreSQL runs on this machine.
   */
  databaseCpuUs?: number;
  /** CPU time of the pooler's process (`LoadPlan.poolerPid`) per answered request during the measured run, in µs. */
  poolerCpuUs?: number;
}

export type ThreadGroup = "main" | "V8" | "other";

/** Requests a plan sends at most (warm-up included), for sizing rate-limit budgets. */
export const plannedRequests = (plan: Pick<LoadPlan, "duration" | "amount" | "warmup">, maxRate: number): number =>
  plan.amount !== undefined ? plan.amount + plan.warmup : Math.ceil((plan.duration + plan.warmup) * maxRate);

/**
 * Runs a warm-up and then the measured load. Requests come from one counter shared by every
 * connection, so a rotation (keys, listings) is followed in order whatever the concurrency.
 */
export async function measure(plan: LoadPlan): Promise<Figure> {
  let sent = 0;
  const requests: autocannon.RequestSpec[] = [
    {
      setupRequest: (request) => {
        const next = plan.requestAt(sent++);
        return {
          ...request,
          method: next.method,
          path: next.path,
          headers: { ...request.headers, ...next.headers },
          body: next.body ?? "",
        };
      },
    },
  ];
  const common = { url: plan.url, connections: plan.connections, requests, timeout: 30 };
  if (plan.warmup > 0) {
    await autocannon(plan.amount !== undefined ? { ...common, amount: plan.warmup } : { ...common, duration: plan.warmup });
  }
  const databaseBefore = plan.databaseCpu ? databaseCpuUs(plan.databaseName) : undefined;
  const poolerBefore = plan.poolerPid ? processCpuUs(plan.poolerPid) : 0;
  const cpuBefore = plan.serverPid ? processCpuUs(plan.serverPid) : 0;
  const threadsBefore = plan.serverPid ? threadCpuUs(plan.serverPid) : undefined;
  const result = await autocannon(plan.amount !== undefined ? { ...common, amount: plan.amount } : { ...common, duration: plan.duration });
  const cpu = plan.serverPid ? processCpuUs(plan.serverPid) - cpuBefore : undefined;
  const threads = plan.serverPid ? threadCpuUs(plan.serverPid) : undefined;
  const database = databaseBefore === undefined ? undefined : databaseCpuUs(plan.databaseName)! - databaseBefore;
  const pooler = plan.poolerPid ? processCpuUs(plan.poolerPid) - poolerBefore : undefined;
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]));
  const answered = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  return {
    requestsPerSecond: round(answered / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: round(result.latency.mean),
    requests: answered,
    seconds: round(result.duration),
    statuses,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(cpu !== undefined && answered ? { serverCpuUs: Math.round(cpu / answered) } : {}),
    ...(threads && threadsBefore && answered
      ? { serverThreadsUs: mapGroups((group) => Math.round((threads[group] - threadsBefore[group]) / answered)) }
      : {}),
    ...(database !== undefined && answered ? { databaseCpuUs: Math.round(database / answered) } : {}),
    ...(pooler !== undefined && answered ? { poolerCpuUs: Math.round(pooler / answered) } : {}),
  };
}

const mapGroups = (of: (group: ThreadGroup) => number): Record<ThreadGroup, number> => ({
  main: of("main"),
  V8: of("V8"),
  other: of("other"),
});

/**
 * CPU time of a process's threads so far by group, in µs, from `/proc/<pid>/task/<tid>/stat`. A
 * thread that ended since the last reading takes its time with it: the groups are read for their
 * shares, `processCpuUs` stays the total.
 */
export function threadCpuUs(pid: number): Record<ThreadGroup, number> {
  const sums: Record<ThreadGroup, number> = { main: 0, V8: 0, other: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const group: ThreadGroup = Number(tid) === pid ? "main" : name.startsWith("V8") ? "V8" : "other";
    sums[group] += cpuOfStat(stat);
  }
  return sums;
}

/**
 * CPU time so far of every process of this machine named `postgres` (the server and its sessions), or
 * with `databaseName` of the sessions on that database only, in µs; undefined when there is none.
 */
export function databaseCpuUs(databaseName?: string): number | undefined {
  let total: number | undefined;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // the process ended between the listing and the read
    }
    if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
    if (databaseName !== undefined && !sessionTitle(pid).includes(databaseName)) continue;
    total = (total ?? 0) + cpuOfStat(stat);
  }
  return total;
}

/** The words of a PostgreSQL process's title (`postgres: 15/main: <user> <database> <client> <state>` for a session), or none once it has ended. */
function sessionTitle(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0\s]+/);
  } catch {
    return [];
  }
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ): 100 on Linux. */
const ticksPerSecond = 100;

/** User + system CPU time of a process so far, in µs, from `/proc/<pid>/stat` (Linux). */
export function processCpuUs(pid: number): number {
  return cpuOfStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/** User + system CPU time of one `stat` line (a process's or a thread's), in µs. */
function cpuOfStat(stat: string): number {
  // Fields after the command name, which sits in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return ((utime + stime) * 1_000_000) / ticksPerSecond;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Two turns of one figure as one (bench/run.ts, `inTurns`): requests, seconds, statuses and CPU summed,
 * the mean and p50 weighted by each turn's requests (a p50 of the merged latencies is not kept by
 * autocannon; two turns of the same load differ little), and the worse p99 of the two.
 */
export function mergeFigures(a: Figure, b: Figure): Figure {
  const requests = a.requests + b.requests;
  const weighted = (of: (f: Figure) => number) => (requests ? round((of(a) * a.requests + of(b) * b.requests) / requests) : 0);
  const statuses: Record<string, number> = { ...a.statuses };
  for (const [code, n] of Object.entries(b.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const seconds = round(a.seconds + b.seconds);
  return {
    requestsPerSecond: seconds ? round(requests / seconds) : 0,
    p50Ms: weighted((f) => f.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    meanMs: weighted((f) => f.meanMs),
    requests,
    seconds,
    statuses,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    ...(a.serverCpuUs !== undefined && b.serverCpuUs !== undefined ? { serverCpuUs: Math.round(weighted((f) => f.serverCpuUs!)) } : {}),
    ...(a.serverThreadsUs && b.serverThreadsUs
      ? { serverThreadsUs: mapGroups((group) => Math.round(weighted((f) => f.serverThreadsUs![group]))) }
      : {}),
    ...(a.databaseCpuUs !== undefined && b.databaseCpuUs !== undefined
      ? { databaseCpuUs: Math.round(weighted((f) => f.databaseCpuUs!)) }
      : {}),
    ...(a.poolerCpuUs !== undefined && b.poolerCpuUs !== undefined ? { poolerCpuUs: Math.round(weighted((f) => f.poolerCpuUs!)) } : {}),
  };
}
