import { execFile } from "node:child_process";
import { appendFileSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import postgres from "postgres";
import { freePort } from "./pgbouncer";

/**
 * A PostgreSQL cluster of its own (`initdb` into a temporary folder, its own port on 127.0.0.1, trust
 * authentication), run by Debian's server binaries with `pg_ctl` as the `postgres` user: what the
 * fleet's journeys and soak restart under load without touching the machine's shared cluster.
 */
export interface PostgresCluster {
  port: number;
  /** The cluster's `postgres` database as `postgres`: for creating databases. */
  adminUrl: string;
  /** `pg_ctl restart -m fast`: every session ended, resolved once the server accepts connections again. */
  restart(): Promise<void>;
  /** A hot standby of this cluster on a port of its own (`pg_basebackup -R`, streaming), started. */
  startStandby(): Promise<PostgresCluster>;
  /** The clients' sessions open on the server now (`pg_stat_activity`'s client backends): the soak samples them. */
  clientSessions(): Promise<number>;
  stop(): Promise<void>;
}

const run = promisify(execFile);
const asRoot = () => process.getuid?.() === 0;
const postgresUid = () => Number(readFileSync("/etc/passwd", "utf8").match(/^postgres:[^:]*:(\d+):/m)?.[1]);

/** The newest server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`). */
function serverBinaries(): string {
  const majors = readdirSync("/usr/lib/postgresql")
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b));
  if (!majors.length) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  return path.join("/usr/lib/postgresql", majors.at(-1)!, "bin");
}

/** Runs one of the server's programs as the `postgres` user (initdb and postgres refuse root). */
async function asPostgres(program: string, args: string[]): Promise<void> {
  const [file, argv] = asRoot() ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  try {
    await run(file, argv, { cwd: "/" });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${path.basename(program)} failed: ${(stderr || stdout || (error as Error).message).trim()}`);
  }
}

const settings = (port: number, socketDir: string) =>
  [
    "",
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${socketDir}'`,
    // The pooler's server pools, each process's LISTEN connection and the replicas' pools of every instance.
    "max_connections = 200",
    "hot_standby = on",
    "",
  ].join("\n");

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = serverBinaries();
  const root = mkdtempSync(path.join(tmpdir(), "pg-cluster-"));
  if (asRoot()) chownSync(root, postgresUid(), -1);
  const data = path.join(root, "primary");
  await asPostgres(path.join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "--encoding=UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  const cluster = await started(bin, root, data, await freePort(), true);
  return cluster;
}

async function started(bin: string, root: string, data: string, port: number, primary: boolean): Promise<PostgresCluster> {
  appendFileSync(path.join(data, "postgresql.conf"), settings(port, root));
  const pgCtl = (...args: string[]) =>
    asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-l", path.join(root, `${port}.log`), "-w", "-t", "60", ...args]);
  await pgCtl("start");
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = () => postgres(adminUrl, { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 5 });
  // A standby answers once it has reached a consistent state; a primary as soon as pg_ctl returns.
  for (let attempt = 0; ; attempt++) {
    const sql = admin();
    const ready = await sql`select pg_is_in_recovery() as recovering`.then(
      ([row]) => row.recovering === !primary,
      () => false,
    );
    await sql.end({ timeout: 1 });
    if (ready) break;
    if (attempt > 120)
      throw new Error(`the cluster on port ${port} did not answer within 60 s: ${readFileSync(path.join(root, `${port}.log`), "utf8")}`);
    await sleep(500);
  }
  const standbys: PostgresCluster[] = [];
  return {
    port,
    adminUrl,
    restart: () => pgCtl("-m", "fast", "restart"),
    async startStandby() {
      const standbyData = path.join(root, `standby-${standbys.length + 1}`);
      await asPostgres(path.join(bin, "pg_basebackup"), [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-D",
        standbyData,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
      ]);
      const standby = await started(bin, root, standbyData, await freePort(), false);
      standbys.push(standby);
      return standby;
    },
    async clientSessions() {
      const sql = admin();
      try {
        const [{ sessions }] = await sql`select count(*)::int as sessions from pg_stat_activity where backend_type = 'client backend'`;
        return sessions as number;
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
    async stop() {
      for (const standby of standbys.splice(0)) await standby.stop();
      await pgCtl("-m", "immediate", "stop").catch(() => {});
      if (primary) rmSync(root, { recursive: true, force: true });
    },
  };
}
