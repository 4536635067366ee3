import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startHttpServer } from "../support/local-http-server";

/** A port nothing listens on right now. */
export const freePort = (): Promise<number> =>
  startHttpServer(() => {}).then(async (probe) => {
    await probe.close();
    return probe.port;
  });

/** A process of the fleet (a web instance or the worker) started from the copied release bundle. */
export interface FleetProcess {
  readonly name: string;
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
  options: { node: string; folder: string; script: string; env: NodeJS.ProcessEnv; ready: (output: string) => Promise<boolean> },
): Promise<FleetProcess> {
  const child: ChildProcess = spawn(options.node, [options.script], {
    cwd: options.folder,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  for (let attempt = 0; ; attempt++) {
    if (!running()) throw new Error(`${name} exited before it was ready:\n${output}`);
    if (await options.ready(output)) break;
    if (attempt > 360) {
      child.kill("SIGKILL");
      throw new Error(`${name} was not ready within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    name,
    output: () => output,
    running,
    async stop() {
      if (!running()) return child.exitCode;
      child.kill("SIGTERM");
      return exited;
    },
    async kill() {
      if (!running()) return;
      child.kill("SIGKILL");
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
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy in front of the web instances, round robin, as an operator's load balancer would be:
 * it checks each instance's readiness (`/api/health/ready`, which answers 503 from the SIGTERM on) every
 * 500 ms and retries a request whose connection was refused or dropped before an answer on the next
 * instance, so a rolling restart is invisible to clients.
 */
export async function startLoadBalancer(backends: { name: string; port: number }[], port: number): Promise<LoadBalancer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-haproxy-"));
  const config = path.join(dir, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 60s",
      "  timeout server 60s",
      "  retries 3",
      "  option redispatch 1",
      "  retry-on conn-failure empty-response response-timeout",
      "frontend api",
      `  bind 127.0.0.1:${port}`,
      "  default_backend web",
      "backend web",
      "  balance roundrobin",
      "  option httpchk GET /api/health/ready",
      "  http-check expect status 200",
      ...backends.map(({ name, port: backendPort }) => `  server ${name} 127.0.0.1:${backendPort} check inter 500ms fall 1 rise 2`),
      "",
    ].join("\n"),
  );
  const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
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
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
