import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort, type PgBouncer } from "@/db/pgbouncer";
import { defaultRedisUrl } from "../support/upstash-bridge";

/**
 * What the journeys on the release bundle share (docs/operations.md, Deploy (self-hosted)): `.next/standalone`
 * copied to an empty folder outside the repository (no node_modules of ours above it), its CLI and
 * server run by Node 24, and a local SMTP server.
 */
export interface ReleaseBundle {
  node24: string;
  /** The copied bundle. */
  folder: string;
  origin: string;
  port: number;
  /** The bundle's CLI (`node cli.mjs …` in the copied folder): its JSON result, or a thrown error with its output. */
  cli(argv: string[], env: NodeJS.ProcessEnv): Record<string, unknown>;
  /** `node server.js`, resolved once the API answers. */
  start(env: NodeJS.ProcessEnv): Promise<void>;
  stop(): Promise<void>;
  /** What the server printed, for failure messages. */
  output(): string;
  /** Repeats `read` every 250 ms until it returns something, for up to 30 s. */
  eventually<T>(what: string, read: () => Promise<T | undefined>): Promise<T>;
  remove(): Promise<void>;
}

const bundle = path.resolve(".next/standalone");

/** Copies the bundle and picks the server's port: call it once the journey's other servers listen, so none is given that port. */
export async function prepareBundle(name: string): Promise<ReleaseBundle> {
  if (!existsSync(path.join(bundle, "server.js")) || !existsSync(path.join(bundle, "cli.mjs")))
    throw new Error("No release bundle in .next/standalone: run `npm run build` first");
  // Production's runtime, as CI's PostgreSQL step gets it: the npm registry's `node` package.
  const node24 = execFileSync("npx", ["-y", "node@24", "-p", "process.execPath"], { encoding: "utf8" }).trim().split("\n").pop()!;
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), `listings-${name}-`)), "app");
  // Verbatim: the server's links into its own node_modules stay relative, never back into the repository.
  cpSync(bundle, folder, { recursive: true, verbatimSymlinks: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  let output = "";

  const eventually = async <T>(what: string, read: () => Promise<T | undefined>): Promise<T> => {
    for (let attempt = 0; attempt < 120; attempt++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${what} did not happen within 30 s; the server said:\n${output}`);
  };

  const release: ReleaseBundle = {
    node24,
    folder,
    origin,
    port,
    cli: (argv, env) =>
      JSON.parse(execFileSync(node24, ["cli.mjs", ...argv], { cwd: folder, env, encoding: "utf8" })) as Record<string, unknown>,
    async start(env) {
      const started = spawn(node24, ["server.js"], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"] });
      server = started;
      started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      // Up once the API answers 401 to a request without a key: the app, its database and its runner are there.
      for (let attempt = 0; attempt < 120; attempt++) {
        if (started.exitCode !== null) throw new Error(`server.js exited with ${started.exitCode}:\n${output}`);
        const status = await fetch(`${origin}/api/v1/ping`).then(
          (response) => response.status,
          () => 0,
        );
        if (status === 401) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`server.js did not answer within 60 s:\n${output}`);
    },
    async stop() {
      const running = server;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await exited;
    },
    output: () => output,
    eventually,
    async remove() {
      await release.stop();
      rmSync(path.dirname(folder), { recursive: true, force: true });
    },
  };
  return release;
}

/**
 * The environment every journey gives the bundle: Node 24's folder first and nothing of the
 * repository's environment; the sandbox (the only environment where a webhook may go to a receiver on
 * this machine, UNSAFE_ALLOW_LOCAL_URLS) with fresh secrets; the database through a PgBouncer in
 * transaction mode (`pooler`), as managed PostgreSQL serves it, with `DATABASE_URL_UNPOOLED` its direct
 * address. Each journey adds its services.
 */
export function bundleEnvironment(release: ReleaseBundle, databaseUrl: string, pooler: PgBouncer): NodeJS.ProcessEnv {
  return {
    PATH: `${path.dirname(release.node24)}:/usr/bin:/bin`,
    NODE_ENV: "production",
    APP_ENV: "sandbox",
    APP_URL: release.origin,
    PORT: String(release.port),
    HOSTNAME: "127.0.0.1",
    DATABASE_URL: pooler.pooled(databaseUrl),
    DATABASE_URL_UNPOOLED: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString("base64"),
    ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    UNSAFE_ALLOW_LOCAL_URLS: "1",
    LOG_LEVEL: "warn",
  };
}

/**
 * Waits for the key's rate-limit counter in Redis, the proof that the bundle's Upstash limiter counts
 * there. A first call slower than the limiter's timeout (a cold script load on a busy machine) is
 * answered from the process's count and opens the circuit; a call 5 s on starts the probe that closes
 * it. So `ping` (a call with the key) is made again every 2 s meanwhile, a handful far below its limit.
 */
export async function keyCountedInRedis(release: ReleaseBundle, keyId: string, ping: () => Promise<Response>): Promise<string[]> {
  const redis = new Redis(defaultRedisUrl);
  try {
    let lastCall = Date.now();
    return await release.eventually("the key's counter in Redis", async () => {
      const found = await redis.keys(`ratelimit:*${keyId}*`);
      if (found.length > 0) return found;
      if (Date.now() - lastCall >= 2000) {
        lastCall = Date.now();
        const answer = await ping();
        if (answer.status !== 200) throw new Error(`the key's call answered ${answer.status}`);
      }
      return undefined;
    });
  } finally {
    redis.disconnect();
  }
}

/** A key of the account with that e-mail, made by the bundle's CLI. */
export const keyOf = (release: ReleaseBundle, email: string, env: NodeJS.ProcessEnv): string =>
  release.cli(
    ["key:create", "--email", email, "--name", "CRM", "--permissions", "listings:read,listings:write,media:write", "--days", "30"],
    env,
  ).key as string;
