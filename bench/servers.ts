import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { freePort } from "@/db/pgbouncer";
import { currentRuntime, type Runtime } from "./runtimes";

const root = process.cwd();
const nextBin = path.join(root, "node_modules/.bin/next");
/** The script behind `next`, run with an explicit Node binary so that the server is that process itself. */
const nextCli = path.join(root, "node_modules/next/dist/bin/next");
/** A Next.js app with one route handler doing the bare servers' work: the ceiling of any handler. */
const ceilingApp = path.join(root, "bench/ceiling-app");
/** What a production build is made from: when any of it is newer than the build, it is rebuilt. */
const buildInputs = [
  "app",
  "lib",
  "db",
  "components",
  "inngest",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package-lock.json",
  "tsconfig.json",
];

export interface RunningServer {
  url: string;
  /** The server's own process (not a wrapper): its RSS is in `/proc/<pid>/status`. */
  pid: number;
  runtime: Runtime;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The app to serve: the product (the repository) by default, or the ceiling app. */
  dir?: string;
  /** The Node.js binary; the one running the benchmark by default. */
  runtime?: Runtime;
  /** `NODE_OPTIONS` of the server process, e.g. `--import` of a probe. */
  nodeOptions?: string;
}

/** The environment of a server started with `runtime`: its `bin` folder first on `PATH`, as `npx node@24` does. */
function runtimeEnv(base: Record<string, string>, runtime: Runtime, nodeOptions: string | undefined): NodeJS.ProcessEnv {
  const env: Record<string, string> = { ...base, PATH: `${path.dirname(runtime.node)}${path.delimiter}${base.PATH ?? ""}` };
  if (nodeOptions !== undefined) env.NODE_OPTIONS = nodeOptions;
  return env as NodeJS.ProcessEnv;
}

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
}

/** `next build` into `.next` unless its build is newer than every source it is made from. */
export async function ensureBuild(log: (line: string) => void): Promise<void> {
  await buildWhenStale(log, { dir: root, what: "production build", inputs: buildInputs });
}

/**
 * `npm run build` (`next build` and the release bundle in `.next/standalone`: `server.js`, `worker.mjs`,
 * `cli.mjs`) unless the bundle is newer than every source it is made from: what the fleet runs.
 */
export async function ensureReleaseBundle(log: (line: string) => void): Promise<void> {
  await buildWhenStale(log, {
    dir: root,
    what: "release bundle",
    inputs: [...buildInputs, "scripts"],
    built: ".next/standalone/cli.mjs",
    command: ["npm", ["run", "build"]],
  });
}

/** The ceiling app (`bench/ceiling-app`), built the same way into its own `.next`. */
export async function ensureCeilingBuild(log: (line: string) => void): Promise<void> {
  await buildWhenStale(log, { dir: ceilingApp, what: "ceiling app build", inputs: ["app", "next.config.ts", "../bare-work.ts"] });
}

async function buildWhenStale(
  log: (line: string) => void,
  target: { dir: string; what: string; inputs: string[]; built?: string; command?: [string, string[]] },
): Promise<void> {
  const built = path.join(target.dir, target.built ?? ".next/BUILD_ID");
  const sources = Math.max(...[...target.inputs, "../package-lock.json"].map((entry) => newestChange(path.resolve(target.dir, entry))));
  if (existsSync(built) && statSync(built).mtimeMs > sources) {
    log(`${target.what} in ${path.relative(root, path.join(target.dir, ".next")) || ".next"} is up to date`);
    return;
  }
  const [command, args] = target.command ?? [nextBin, ["build"]];
  log(`building the ${target.what} (${path.basename(command)} ${args.join(" ")})…`);
  const child = spawn(command, args, {
    cwd: target.dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = capture(child, 200);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} in ${target.dir} failed (exit ${code}):\n${output()}`);
}

/**
 * `next start` on a free port, run by `runtime`'s Node binary directly (so `pid` is the server);
 * ready once `/api/v1/ping` answers 401 to a request without a key.
 */
export async function startNext(env: Record<string, string>, options: StartOptions = {}): Promise<RunningServer> {
  const runtime = options.runtime ?? currentRuntime();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(runtime.node, [nextCli, "start", options.dir ?? root, "-p", String(port), "-H", "127.0.0.1"], {
    env: runtimeEnv(
      { ...withoutScaleOutServices(process.env), ...env, APP_URL: url, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      runtime,
      options.nodeOptions,
    ),
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  const output = capture(child, 50);
  await waitUntil(
    child,
    output,
    async () =>
      (await fetch(`${url}/api/v1/ping`).then(
        (r) => r.status,
        () => 0,
      )) === 401,
  );
  return { url, pid: child.pid!, runtime, stop: () => stop(child) };
}

/** The ceiling app on `runtime` over `databaseUrl` (it answers `/api/v1/ping` without a key with 401 too). */
export const startCeiling = (databaseUrl: string, runtime: Runtime, nodeOptions?: string) =>
  startNext({ DATABASE_URL: databaseUrl }, { runtime, dir: ceilingApp, nodeOptions });

/** The baseline server (`bench/bare-server.ts`) in its own process, so it has an event loop of its own as Next.js has. */
export async function startBare(databaseUrl: string, runtime: Runtime = currentRuntime()): Promise<RunningServer> {
  const child = spawn(runtime.node, ["--import", "tsx", path.join(root, "bench/bare-server.ts")], {
    env: runtimeEnv(withoutScaleOutServices({ ...process.env, DATABASE_URL: databaseUrl }), runtime, undefined),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output = capture(child, 50);
  let port = 0;
  child.stdout!.on("data", (chunk: Buffer) => {
    const match = chunk.toString().match(/\{"port":(\d+)\}/);
    if (match) port = Number(match[1]);
  });
  await waitUntil(child, output, async () => port > 0);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, runtime, stop: () => stop(child) };
}

// The benchmark measures the embedded defaults of one instance: no Redis limiter, no Inngest.
function withoutScaleOutServices(env: NodeJS.ProcessEnv): Record<string, string> {
  const scaleOut = /^(UPSTASH_|INNGEST_)/;
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && !scaleOut.test(e[0])));
}

async function waitUntil(child: ChildProcess, output: () => string, ready: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}:\n${output()}`);
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`server not ready after ${timeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The last `lines` lines a child wrote on stdout/stderr, for error messages. */
function capture(child: ChildProcess, lines: number): () => string {
  const kept: string[] = [];
  const keep = (chunk: Buffer) => {
    kept.push(...chunk.toString().split("\n"));
    kept.splice(0, Math.max(0, kept.length - lines));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return () => kept.join("\n");
}

/** Stops a server started here: its whole process group (it was started detached), SIGKILL after 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
