import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** A PgBouncer of its own in front of a PostgreSQL server: what `npm run test:pg` and the fleet tests run through. */
export interface PgBouncer {
  /** `url` with its host and port replaced by the pooler's: the same database and user, through the pooler. */
  pooled(url: string): string;
  /** The pooler's process (the benchmark reads its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts Debian's `pgbouncer` (1.18 here: no protocol-level prepared statements in transaction mode)
 * in transaction mode on a free port of 127.0.0.1, forwarding every database to `upstream`'s host
 * with trust authentication, as a managed pooler (Neon, Supabase) would sit in front of PostgreSQL.
 * Its files live in a folder of its own; as root it runs as the `postgres` user (it refuses root).
 */
export async function startPgBouncer(upstream: string, poolSize = 20): Promise<PgBouncer> {
  const server = new URL(upstream);
  const user = decodeURIComponent(server.username || "postgres");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 2000",
      `default_pool_size = ${poolSize}`,
      // After a failed server login (PostgreSQL restarting) PgBouncer waits this long before trying again, 15 s by
      // default: every query would wait or fail for 15 s after a restart of a second.
      "server_login_retry = 1",
      // postgres.js sends these start-up parameters; PgBouncer refuses unknown ones.
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(readFileSync("/etc/passwd", "utf8").match(/^postgres:[^:]*:(\d+):/m)?.[1]);
    chownSync(dir, uid, -1);
  }
  const child = spawn("pgbouncer", [...(asRoot ? ["-u", "postgres"] : []), ini], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.once("error", (error) => (stderr += error.message));
  try {
    await listening(port, child);
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pgbouncer did not start: ${(error as Error).message}; ${stderr.trim()}`);
  }
  return {
    pooled(url) {
      const pooled = new URL(url);
      pooled.hostname = "127.0.0.1";
      pooled.port = String(port);
      return pooled.toString();
    },
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGINT");
        await Promise.race([exited, sleep(5000).then(() => child.kill("SIGKILL"))]);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port of 127.0.0.1 nothing listens on right now (the pooler's, and every local server's of the tests and benchmarks). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after 5 s`);
}
