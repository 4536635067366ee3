import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis, type ChainableCommander } from "ioredis";

/**
 * A test-only server speaking the Upstash Redis REST protocol on top of a real Redis, so
 * `@upstash/redis` and `@upstash/ratelimit` run unchanged against it:
 * `POST /` with `["CMD", ...args]` → `{ result }` (400 `{ error }` on a Redis error),
 * `POST /pipeline` and `POST /multi-exec` with an array of commands → an array of `{ result }` / `{ error }`.
 * With `Upstash-Encoding: base64` every string in a result is base64 of its bytes, as Upstash does.
 * With `keyPrefix`, every key the clients name is kept under `<keyPrefix>:` in Redis: a test's keys
 * are then its own in the Redis every test (and every checkout on the machine) shares, and it can
 * delete them without touching another's.
 */
export interface UpstashBridge {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The Redis behind the bridge; `TEST_REDIS_URL` points the tests at another one. */
export const defaultRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

type Command = [string, ...unknown[]];
type Reply = { result: unknown } | { error: string };

/**
 * Upstash's scripts start with `#!lua flags=allow-key-locking`, a flag Redis 7.0 refuses, so the
 * bridge runs them without that line. Clients call EVALSHA with the hash of the script as they
 * wrote it, so the bridge remembers which stored hash each original hash stands for.
 */
const unsupportedShebang = /^#!lua flags=allow-key-locking\r?\n/;
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

const scriptCommands = new Set(["EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO"]);
const keylessCommands = new Set(["PING", "ECHO", "SCRIPT", "TIME"]);
const firstKeyCommands = new Set([
  "GET",
  "SET",
  "DEL",
  "INCR",
  "INCRBY",
  "EXPIRE",
  "PEXPIRE",
  "TTL",
  "PTTL",
  "ZADD",
  "ZREM",
  "ZCARD",
  "ZRANGE",
  "ZSCORE",
  "ZREMRANGEBYSCORE",
  "SISMEMBER",
  "SMISMEMBER",
  "HGET",
  "HSET",
  "HINCRBY",
]);

/** Where a command's arguments name keys: a script's after its key count, the others' first (a command the bridge does not know is refused, not passed unprefixed). */
function keyIndexes(command: string, args: string[]): number[] {
  if (scriptCommands.has(command)) return Array.from({ length: Number(args[1]) }, (_, index) => 2 + index);
  if (keylessCommands.has(command)) return [];
  if (firstKeyCommands.has(command)) return [0];
  throw new Error(`ERR the bridge's keyPrefix does not know where ${command} names its keys`);
}

export async function redisReachable(url = defaultRedisUrl): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export async function startUpstashBridge(
  options: { redisUrl?: string; token?: string; port?: number; keyPrefix?: string } = {},
): Promise<UpstashBridge> {
  const token = options.token ?? "bridge-token";
  const redis = new Redis(options.redisUrl ?? defaultRedisUrl, { maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself and each command's reply carries its own failure; without a listener a
  // connect timeout on a busy machine is printed as an unhandled error event.
  redis.on("error", () => {});
  const storedHashOf = new Map<string, string>();

  const rewrite = ([name, ...rawArgs]: Command): Command => {
    const command = name.toUpperCase();
    const args = rawArgs.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg)));
    const isScriptLoad = command === "SCRIPT" && args[0]?.toUpperCase() === "LOAD";
    const scriptIndex = command === "EVAL" || command === "EVAL_RO" ? 0 : isScriptLoad ? 1 : -1;
    const script = args[scriptIndex];
    if (script !== undefined && unsupportedShebang.test(script)) {
      const runnable = script.replace(unsupportedShebang, "");
      storedHashOf.set(sha1(script), sha1(runnable));
      args[scriptIndex] = runnable;
    }
    if ((command === "EVALSHA" || command === "EVALSHA_RO") && storedHashOf.has(args[0])) {
      args[0] = storedHashOf.get(args[0])!;
    }
    if (options.keyPrefix) for (const index of keyIndexes(command, args)) args[index] = `${options.keyPrefix}:${args[index]}`;
    return [command, ...args];
  };

  /** SCRIPT LOAD answers with the hash the client computed itself, not the stored one. */
  const answer = (command: Command, result: unknown): unknown =>
    command[0].toUpperCase() === "SCRIPT" && String(command[1]).toUpperCase() === "LOAD" ? sha1(String(command[2])) : result;

  const encode = (value: unknown, base64: boolean): unknown => {
    if (Buffer.isBuffer(value)) return base64 ? value.toString("base64") : value.toString("utf8");
    if (typeof value === "string") return base64 ? Buffer.from(value).toString("base64") : value;
    if (Array.isArray(value)) return value.map((item) => encode(item, base64));
    return value;
  };

  const runSingle = async (command: Command, base64: boolean): Promise<Reply> => {
    try {
      const [name, ...args] = rewrite(command);
      const result = await redis.callBuffer(name, ...(args as string[]));
      return { result: encode(answer(command, result), base64) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  const runBatch = async (batch: ChainableCommander, commands: Command[], base64: boolean): Promise<Reply[]> => {
    for (const command of commands) {
      const [name, ...args] = rewrite(command);
      batch.callBuffer(name, ...(args as string[]));
    }
    const replies = (await batch.exec()) ?? [];
    return replies.map(([error, result], index) =>
      error ? { error: error.message } : { result: encode(answer(commands[index], result), base64) },
    );
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    const base64 = request.headers["upstash-encoding"] === "base64";
    const path = new URL(request.url ?? "/", "http://bridge").pathname;
    if (request.method !== "POST" || !Array.isArray(body)) return send(400, { error: "ERR expected a POST with a JSON array" });
    if (path === "/") {
      const reply = await runSingle(body as Command, base64);
      return send("error" in reply ? 400 : 200, reply);
    }
    if (path === "/pipeline") return send(200, await runBatch(redis.pipeline(), body as Command[], base64));
    if (path === "/multi-exec") {
      try {
        return send(200, await runBatch(redis.multi(), body as Command[], base64));
      } catch (error) {
        return send(400, { error: (error as Error).message });
      }
    }
    send(404, { error: `ERR unknown path ${path}` });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: error.message }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}
