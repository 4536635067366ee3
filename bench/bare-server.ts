/**
 * The baseline server of the benchmark: `node:http` around `bench/bare-work.ts` (the product's
 * database work, its API log included, with plain postgres.js and nothing else). Started by `bench/run.ts` as a child
 * process with `DATABASE_URL`; it prints `{"port":N}` once listening.
 */
import { createServer, type IncomingMessage } from "node:http";
import { closeBare, handleBare } from "./bare-work";

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const server = createServer(async (req, res) => {
  const { status, text, headers } = await handleBare({
    method: req.method ?? "GET",
    url: req.url ?? "/",
    authorization: req.headers.authorization,
    ifMatch: req.headers["if-match"],
    text: () => readText(req),
  });
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});

process.on("SIGTERM", () => {
  server.close(() => void closeBare().then(() => process.exit(0)));
  server.closeAllConnections();
});
