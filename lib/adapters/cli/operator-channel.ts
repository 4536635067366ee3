import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { database as processDatabase, type Database } from "@/db";
import { updateLock } from "@/db/lock";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { executeCommand, type CommandRequest } from "./execute";
import { CliError, failureReply, type Reply } from "./reply";

/**
 * PGlite may be opened by one process only (db/lock.ts), so the process holding the embedded
 * database (the Next server) runs operator commands for the CLI: an HTTP server on 127.0.0.1, on a
 * random port, with a random bearer token, both written to the lock file that only this user can read.
 */
export interface ChannelAddress {
  port: number;
  token: string;
}

const commandsPath = "/commands";
const maxRequestBytes = 65_536;
const loopback = new Set(["127.0.0.1", "::ffff:127.0.0.1"]);

const requestSchema = z.object({
  command: z.string(),
  args: z.record(z.string(), z.union([z.string(), z.boolean()])),
});

const replySchema = z.union([
  z.object({ exit_code: z.literal(0), result: z.record(z.string(), z.unknown()) }),
  z.object({
    exit_code: z.union([z.literal(1), z.literal(2)]),
    error: z.looseObject({ code: z.string(), detail: z.string() }),
  }),
]);

interface ChannelState {
  server: Server;
  address: ChannelAddress;
  dataDir: string;
}

// One channel per process, in the process registry.
const channel = processSlot<Promise<ChannelState>>("operatorChannel");

/** Starts the channel once per process and records it in `<dataDir>.lock` for the CLI to find. */
export async function startOperatorChannel(options: { dataDir: string; database?: () => Promise<Database> }): Promise<ChannelAddress> {
  const listening = channel.getOrMake(() =>
    listen(options.dataDir, options.database ?? processDatabase).catch((error: unknown) => {
      channel.set(undefined);
      throw error;
    }),
  );
  return (await listening).address;
}

/** Closes the channel; the lock keeps naming this process, now as a holder without a channel. */
export async function stopOperatorChannel(): Promise<void> {
  const pending = channel.get();
  channel.set(undefined);
  if (!pending) return;
  const state = await pending;
  updateLock(state.dataDir, {});
  await new Promise<void>((resolve) => state.server.close(() => resolve()));
}

async function listen(dataDir: string, database: () => Promise<Database>): Promise<ChannelState> {
  const token = randomBytes(32).toString("base64url");
  const server = createServer(async (request, response) => {
    const { status, reply } = await answer(request, token, database);
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // The server's own work keeps the process alive; the channel alone must not.
  server.unref();
  const address = { port: (server.address() as AddressInfo).port, token };
  updateLock(dataDir, { operatorPort: address.port, operatorToken: token });
  logger.info("operator channel listening", { port: address.port });
  return { server, address, dataDir };
}

const refusal = (status: number, code: string, detail: string) => ({ status, reply: { exit_code: 1, error: { code, detail } } as Reply });

async function answer(
  request: IncomingMessage,
  token: string,
  database: () => Promise<Database>,
): Promise<{ status: number; reply: Reply }> {
  if (!loopback.has(request.socket.remoteAddress ?? "")) return refusal(403, "forbidden", "The operator channel answers 127.0.0.1 only.");
  if (request.url !== commandsPath) return refusal(404, "not_found", `The operator channel answers ${commandsPath} only.`);
  if (request.method !== "POST") return refusal(405, "method_not_allowed", "Send commands with POST.");
  if (!tokenMatches(request.headers.authorization, token)) return refusal(401, "unauthenticated", "Wrong or missing operator token.");
  const body = await readBody(request);
  if (body === undefined) return refusal(413, "payload_too_large", `A command is at most ${maxRequestBytes} bytes.`);
  let parsed: ReturnType<typeof requestSchema.safeParse>;
  try {
    parsed = requestSchema.safeParse(JSON.parse(body));
  } catch {
    return refusal(400, "malformed_json", "The command is not JSON.");
  }
  if (!parsed.success) return refusal(400, "bad_request", 'Send { "command": string, "args": { name: string | boolean } }.');
  const command = parsed.data;
  const reply = await database().then((db) => executeCommand(db, command), failureReply);
  logger.info("operator command", { command: command.command, exitCode: reply.exit_code });
  return { status: reply.exit_code === 0 ? 200 : reply.exit_code === 2 ? 422 : 500, reply };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = header?.match(/^Bearer (\S+)$/)?.[1];
  if (!given) return false;
  // Equal-length digests let timingSafeEqual compare tokens of any length in constant time.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * The body as text, or undefined when it is larger than a command can be. An oversize body is read
 * to its end (the sender holds the token) so that the refusal reaches it instead of a reset.
 */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxRequestBytes) chunks.push(chunk);
  }
  return size > maxRequestBytes ? undefined : Buffer.concat(chunks).toString("utf8");
}

/** The CLI's side: runs a command in the process that holds the database and returns its reply. */
export async function sendCommand(address: ChannelAddress, request: CommandRequest): Promise<Reply> {
  const where = `127.0.0.1:${address.port}`;
  let response: Response;
  try {
    response = await fetch(`http://${where}${commandsPath}`, {
      method: "POST",
      headers: { authorization: `Bearer ${address.token}`, "content-type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new CliError(
      "operator_channel_unreachable",
      `The server holding the embedded database does not answer on ${where} (${reason}).`,
      1,
    );
  }
  const reply = replySchema.safeParse(await response.json().catch(() => undefined));
  if (!reply.success)
    throw new CliError("operator_channel_failed", `The operator channel answered ${response.status} without a command reply.`, 1);
  return reply.data as Reply;
}
