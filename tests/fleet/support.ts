import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { startPostgresCluster, type PostgresCluster } from "@/db/cluster";
import { freePort, startPgBouncer, type PgBouncer } from "@/db/pgbouncer";
import { createThrowawayDatabase } from "@/db/throwaway";
import { bundleEnvironment, prepareBundle, type ReleaseBundle } from "../bundle/support";
import { startFakeVercelBlob, type FakeVercelBlob } from "../support/fake-vercel-blob";
import { startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";

/** A process of the fleet (a web instance or the worker) started from the copied release bundle. */
export interface FleetProcess {
  readonly name: string;
  readonly pid: number;
  output(): string;
  /** SIGTERM, resolved with the exit code once it has exited. */
  stop(): Promise<number | null>;
  /** SIGKILL, resolved once it has gone. */
  kill(): Promise<void>;
  running(): boolean;
}

/**
 * Starts `node <script>` in the bundle's folder with `env`; resolved once `ready` says so (polled every
 * 250 ms for up to 90 s), or rejected with what the process printed.
 */
export async function startFleetProcess(
  name: string,
  options: {
    node: string;
    folder: string;
    script: string;
    env: NodeJS.ProcessEnv;
    ready: (output: string) => Promise<boolean>;
    /** A file the process's output is also appended to (an instance started again appends to its own). */
    logFile?: string;
  },
): Promise<FleetProcess> {
  const child: ChildProcess = spawn(options.node, [options.script], {
    cwd: options.folder,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const log = options.logFile ? createWriteStream(options.logFile, { flags: "a" }) : undefined;
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    log?.write(chunk);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.once("close", () => log?.end());
  let stopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      // A process that dies on its own is said at once, with what it printed: the balancer would only show 503s.
      if (!stopping)
        process.stderr.write(`${name} exited by itself (${signal ?? `code ${code}`}); its last output:\n${output.slice(-4000)}\n`);
      resolve(code);
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  /** Sends a signal the test means, so the exit it causes is not reported as the process dying by itself. */
  const signal = (name: "SIGTERM" | "SIGKILL") => {
    stopping = true;
    child.kill(name);
  };
  for (let attempt = 0; ; attempt++) {
    if (!running()) throw new Error(`${name} exited before it was ready:\n${output}`);
    if (await options.ready(output)) break;
    if (attempt > 360) {
      signal("SIGKILL");
      throw new Error(`${name} was not ready within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    name,
    pid: child.pid!,
    output: () => output,
    running,
    async stop() {
      if (!running()) return child.exitCode;
      signal("SIGTERM");
      return exited;
    },
    async kill() {
      if (!running()) return;
      signal("SIGKILL");
      await exited;
    },
  };
}

/** Whether `origin` answers the API (401 to a request without a key). */
export const answersApi = async (origin: string): Promise<boolean> =>
  fetch(`${origin}/api/v1/ping`).then(
    (response) => response.status === 401,
    () => false,
  );

export interface LoadBalancer {
  origin: string;
  /** The backends the balancer sends requests to now (its checks found them ready). */
  serving(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy in front of the web instances, round robin, as an operator's load balancer would be:
 * it checks each instance's readiness (`/api/health/ready`, which answers 503 from the SIGTERM on) every
 * 500 ms (giving each check up to 5 s) and retries a request whose connection was refused or dropped before an answer on the next
 * instance, so a rolling restart is invisible to clients.
 */
export async function startLoadBalancer(
  backends: { name: string; port: number }[],
  port: number,
  /** Where HAProxy's log of abnormal requests goes (errors, time-outs, retries, redispatches): normal ones are not logged. */
  logFile?: string,
): Promise<LoadBalancer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-haproxy-"));
  const config = path.join(dir, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 2000",
      ...(logFile ? ["  log stdout format raw local0 info"] : []),
      `  stats socket ${path.join(dir, "admin.sock")} level admin`,
      "defaults",
      "  mode http",
      ...(logFile ? ["  log global", "  option httplog", "  option dontlog-normal"] : []),
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      // Without it a check must answer within `inter` (500 ms): a busy instance would be taken out as a dead one.
      "  timeout check 5s",
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure empty-response response-timeout",
      "frontend api",
      `  bind 127.0.0.1:${port}`,
      // With no instance ready (all of them restarting, or none reaching PostgreSQL) the balancer answers as an
      // instance would: 503 problem+json with Retry-After, which clients retry, not HAProxy's bare HTML page.
      `  errorfile 503 ${path.join(dir, "503.http")}`,
      "  default_backend web",
      "backend web",
      "  balance roundrobin",
      "  option httpchk GET /api/health/ready",
      "  http-check expect status 200",
      ...backends.map(({ name, port: backendPort }) => `  server ${name} 127.0.0.1:${backendPort} check inter 500ms fall 2 rise 2`),
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(dir, "503.http"),
    [
      "HTTP/1.1 503 Service Unavailable",
      "Content-Type: application/problem+json",
      "Retry-After: 5",
      "Cache-Control: no-store",
      "Connection: close",
      "",
      JSON.stringify({ type: "about:blank", title: "Service unavailable", status: 503, code: "service_unavailable" }),
    ].join("\r\n"),
  );
  const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const log = logFile ? createWriteStream(logFile, { flags: "a" }) : undefined;
  child.stdout!.on("data", (chunk: Buffer) => (log ? log.write(chunk) : (output += chunk.toString())));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.once("close", () => log?.end());
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; !(await answersApi(origin)); attempt++) {
    if (child.exitCode !== null || attempt > 120) {
      child.kill("SIGKILL");
      throw new Error(`haproxy did not serve on ${origin}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    async serving() {
      const csv = await new Promise<string>((resolve, reject) => {
        let answer = "";
        const socket = connect(path.join(dir, "admin.sock"), () => socket.end("show stat\n"));
        socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
        socket.on("end", () => resolve(answer));
        socket.on("error", reject);
      });
      // CSV: proxy name, server name, … status (the 18th column).
      return csv
        .split("\n")
        .map((line) => line.split(","))
        .filter((fields) => fields[0] === "web" && !["BACKEND", "FRONTEND"].includes(fields[1]) && fields[17] === "UP")
        .map((fields) => fields[1]);
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The fleet an operator runs (docs/operations.md, Scaling out), as `npm run test:fleet` and
 * `npm run soak -- --fleet` drive it: a PostgreSQL cluster of its own with a hot standby streaming from
 * it, PgBouncer in transaction mode in front of the primary, Redis (through the Upstash bridge) for the
 * limiter and the long polls' places, Vercel Blob (its local fake) for the photos, two web instances of
 * the release bundle with `JOBS_RUNNER=off` reading the public catalog from the standby
 * (`DATABASE_REPLICA_URLS`), and one worker (`node worker.mjs`), behind HAProxy in round robin.
 */
export interface Fleet {
  /** The balancer's origin: what clients call. */
  origin: string;
  release: ReleaseBundle;
  /** The environment every process of the fleet gets (the CLI's too). */
  environment: NodeJS.ProcessEnv;
  cluster: PostgresCluster;
  standby: PostgresCluster;
  /** The fleet's database on the primary, direct (`DATABASE_URL_UNPOOLED`). */
  databaseUrl: string;
  pooler: PgBouncer;
  blob: FakeVercelBlob;
  /** The web instances, by index (replaced when one is started again). */
  web: FleetProcess[];
  worker(): FleetProcess;
  instanceOrigin(index: number): string;
  /** The web instances the balancer sends requests to now. */
  serving(): Promise<string[]>;
  startWeb(index: number): Promise<FleetProcess>;
  startWorker(): Promise<FleetProcess>;
  /**
   * SIGTERM to each web instance in turn, started again and taken back by the balancer (two good
   * checks, read from HAProxy's stats socket) before the next: resolved with their exit codes.
   */
  rollingRestart(): Promise<(number | null)[]>;
  /** The bundle's CLI with the fleet's environment. */
  cli(argv: string[]): Record<string, unknown>;
  stop(): Promise<void>;
}

/** `logDir`: each process's output is also appended to `<logDir>/<web-1|web-2|worker>.log`, HAProxy's abnormal requests to `haproxy.log`. */
export async function startFleet(name: string, options: { logDir?: string } = {}): Promise<Fleet> {
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const logFile = (processName: string) => options.logDir && path.join(options.logDir, `${processName.replace(" ", "-")}.log`);
  const cluster = await startPostgresCluster();
  const stops: (() => Promise<void>)[] = [() => cluster.stop()];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const { url: databaseUrl } = await createThrowawayDatabase(cluster.adminUrl, name);
    const standby = await cluster.startStandby();
    const pooler = await startPgBouncer(databaseUrl);
    stops.push(() => pooler.stop());
    const bridge: UpstashBridge = await startUpstashBridge();
    stops.push(() => bridge.close());
    const blob = await startFakeVercelBlob();
    stops.push(() => blob.close());
    // Last: the bundle's ports are found free once the services above listen.
    const release = await prepareBundle(name);
    stops.push(() => release.remove());
    const webPorts = [await freePort(), await freePort()];
    const balancerPort = await freePort();
    const replicaUrl = Object.assign(new URL(databaseUrl), { port: String(standby.port) }).toString();
    const environment: NodeJS.ProcessEnv = {
      ...bundleEnvironment(release, databaseUrl, pooler),
      APP_URL: `http://127.0.0.1:${balancerPort}`,
      UPSTASH_REDIS_REST_URL: bridge.url,
      UPSTASH_REDIS_REST_TOKEN: bridge.token,
      BLOB_READ_WRITE_TOKEN: blob.token,
      VERCEL_BLOB_API_URL: blob.apiUrl,
      DATABASE_REPLICA_URLS: replicaUrl,
      JOBS_RUNNER: "off",
    };
    const cli = (argv: string[]) => release.cli(argv, environment);
    cli(["db:migrate"]);

    const web: FleetProcess[] = [];
    let worker: FleetProcess | undefined;
    stops.push(async () => {
      await Promise.all([...web.map((process) => process.stop()), worker?.stop()]);
    });
    const instanceOrigin = (index: number) => `http://127.0.0.1:${webPorts[index]}`;
    const startWeb = async (index: number) =>
      (web[index] = await startFleetProcess(`web ${index + 1}`, {
        node: release.node24,
        folder: release.folder,
        script: "server.js",
        env: { ...environment, PORT: String(webPorts[index]), HOSTNAME: "127.0.0.1" },
        ready: () => answersApi(instanceOrigin(index)),
        logFile: logFile(`web ${index + 1}`),
      }));
    const startWorker = async () =>
      (worker = await startFleetProcess("worker", {
        node: release.node24,
        folder: release.folder,
        script: "worker.mjs",
        env: { ...environment, LOG_LEVEL: "info" },
        ready: async (output) => output.includes("embedded job runner started"),
        logFile: logFile("worker"),
      }));
    await Promise.all([startWeb(0), startWeb(1)]);
    await startWorker();
    const balancer = await startLoadBalancer(
      webPorts.map((port, index) => ({ name: `web${index + 1}`, port })),
      balancerPort,
      logFile("haproxy"),
    );
    stops.push(() => balancer.stop());
    const allServing = async (what: string) => {
      for (let attempt = 0; (await balancer.serving()).length < web.length; attempt++) {
        if (attempt > 240) throw new Error(`the balancer did not take ${what} within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    // The first request may be sent once the balancer serves every instance, not only the first one it found ready.
    await allServing("both web instances");

    return {
      origin: balancer.origin,
      release,
      environment,
      cluster,
      standby,
      databaseUrl,
      pooler,
      blob,
      web,
      worker: () => worker!,
      instanceOrigin,
      serving: () => balancer.serving(),
      startWeb,
      startWorker,
      async rollingRestart() {
        const codes: (number | null)[] = [];
        for (const index of web.keys()) {
          codes.push(await web[index].stop());
          await startWeb(index);
          // Before the next one stops: the balancer takes this one back after two good checks.
          await allServing(`web ${index + 1} back`);
        }
        return codes;
      },
      cli,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
