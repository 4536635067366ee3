import { execFile } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";

/**
 * The hot standby the read-replica tests read from: a streaming replica of the test cluster made by
 * `scripts/pg-replica.sh` (`pg_basebackup -R`), on `PG_REPLICA_PORT` (5433). `.ci/run` makes it before
 * the suites; a run on a machine without it makes it here, once (the script is idempotent and
 * serialized by a lock, so test processes asking at once find the one standby).
 */
export const replicaPort = Number(process.env.PG_REPLICA_PORT ?? 5433);

export async function ensureReplica(): Promise<void> {
  const script = path.resolve(import.meta.dirname, "../../scripts/pg-replica.sh");
  await promisify(execFile)("bash", [script], { env: { ...process.env, PG_REPLICA_PORT: String(replicaPort) } });
}

/** The address of `directUrl`'s database on the replica (a physical replica holds every database of its primary). */
export function replicaUrlOf(directUrl: string, port = replicaPort): string {
  const url = new URL(directUrl);
  url.host = `127.0.0.1:${port}`;
  return url.toString();
}

const adminOptions = { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 5 } as const;

/** The cluster's `postgres` database at `url`'s host: a database the replica has from the start. */
const clusterUrl = (url: string): string => Object.assign(new URL(url), { pathname: "/postgres" }).toString();

/**
 * Waits until the replica has replayed everything the primary had written when called (its WAL
 * position then): what was committed before is visible there afterwards.
 */
export async function waitForReplay(primaryDirectUrl: string, limitMs = 30_000): Promise<void> {
  const primary = postgres(clusterUrl(primaryDirectUrl), adminOptions);
  const replica = postgres(clusterUrl(replicaUrlOf(primaryDirectUrl)), adminOptions);
  try {
    const [{ lsn }] = await primary`select pg_current_wal_lsn()::text as lsn`;
    for (const deadline = Date.now() + limitMs; ;) {
      const [{ replayed }] = await replica`select coalesce(pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn, false) as replayed`;
      if (replayed) return;
      if (Date.now() > deadline) throw new Error(`the replica had not replayed the primary's WAL up to ${lsn} after ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await Promise.all([primary.end({ timeout: 1 }), replica.end({ timeout: 1 })]);
  }
}

/**
 * Runs `fn` with the replica's replay paused (`pg_wal_replay_pause()`): it keeps receiving the
 * primary's WAL but shows nothing new. Replay resumes afterwards, always. Test runs sharing the
 * standby take turns (an advisory lock on the primary), so one's resume never cuts another's pause.
 */
export async function withReplayPaused<T>(primaryDirectUrl: string, fn: () => Promise<T>): Promise<T> {
  const primary = postgres(clusterUrl(primaryDirectUrl), adminOptions);
  const replica = postgres(clusterUrl(replicaUrlOf(primaryDirectUrl)), adminOptions);
  const turn = 0x7265_706c; // "repl"
  try {
    await primary`select pg_advisory_lock(${turn})`;
    try {
      await replica`select pg_wal_replay_pause()`;
      return await fn();
    } finally {
      await replica`select pg_wal_replay_resume()`;
      await primary`select pg_advisory_unlock(${turn})`;
    }
  } finally {
    await Promise.all([primary.end({ timeout: 1 }), replica.end({ timeout: 1 })]);
  }
}

/**
 * A PostgreSQL ErrorResponse message refusing a session as a stopping server does (SQLSTATE 57P03).
 * A server that accepts a connection and closes it without a word is no stand-in: postgres.js would
 * reconnect at once, again and again, and the query would wait for ever.
 */
function shuttingDown(): Buffer {
  const fields = [
    ["S", "FATAL"],
    ["V", "FATAL"],
    ["C", "57P03"],
    ["M", "the database system is shutting down"],
  ].map(([type, value]) => Buffer.from(`${type}${value}\0`));
  const body = Buffer.concat([...fields, Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * A TCP proxy of the test's own in front of the replica, so that a test can take "the replica" down
 * and bring it back without touching the standby other tests use. Taken down, it ends every session
 * and answers each new one as a stopping PostgreSQL does (57P03), counting them: how many times the
 * application tried the replica.
 */
export async function startReplicaProxy(targetPort = replicaPort) {
  const open = new Set<net.Socket>();
  let down = false;
  let attemptsWhileDown = 0;
  const server = net.createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => {});
    if (down) {
      attemptsWhileDown++;
      client.once("data", () => client.end(shuttingDown()));
      return;
    }
    const upstream = net.connect(targetPort, "127.0.0.1");
    open.add(upstream);
    upstream.on("close", () => open.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** Ends every session through the proxy and refuses new ones. */
    takeDown() {
      down = true;
      for (const socket of open) socket.destroy();
    },
    bringBack() {
      down = false;
    },
    attemptsWhileDown: () => attemptsWhileDown,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
