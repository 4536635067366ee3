/**
 * `npm run test:mcp-conformance`: the Model Context Protocol's own conformance package
 * (`@modelcontextprotocol/conformance`, pinned below, fetched by npx into npm's cache with the
 * Node.js 24 it needs: it is no dependency of the app) runs its server scenarios against our `/api/mcp`
 * (docs/development.md, MCP conformance).
 *
 * The endpoint runs in this process, as the tests run it: the route handlers of `/api/mcp` behind a
 * `node:http` server on a free loopback port, an embedded in-memory database migrated on start, a
 * fresh sandbox account and a key with every permission. The package's client sends no
 * `Authorization`, and our endpoint answers nothing without a key, so that server adds
 * `Authorization: Bearer <key>` to each request. The scenarios for what the endpoint deliberately
 * does not offer are listed in tests/conformance/mcp-expected-failures.yml: the package then exits 0
 * when exactly those fail, 1 on any other failure or when one of them starts to pass (the list is
 * then stale). Its results are written under `.data/mcp-conformance/`.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

const conformancePackage = "@modelcontextprotocol/conformance@0.1.16";

const root = path.resolve(import.meta.dirname, "..");
const expectedFailures = path.join(root, "tests/conformance/mcp-expected-failures.yml");

type Handler = (request: Request) => Promise<Response>;

/** A loopback server handing each request, with the key's `Authorization`, to `forward`; the answer is sent whole. */
async function authorizingServer(key: string, forward: Handler) {
  const server = createServer((req, res) => {
    void answer(req, res, key, forward).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function answer(req: IncomingMessage, res: ServerResponse, key: string, forward: Handler): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  headers.set("authorization", `Bearer ${key}`);
  const { port } = req.socket.address() as AddressInfo;
  const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
    method: req.method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const response = await forward(request);
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

/** The endpoint in this process, on an embedded database of its own, and a sandbox key of a fresh account. */
async function inProcessEndpoint(): Promise<{ key: string; handle: Handler }> {
  Object.assign(process.env, {
    APP_ENV: "sandbox",
    PGLITE_DIR: "memory://",
    JOBS_RUNNER: "off",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    AUTH_SECRET: process.env.AUTH_SECRET ?? "a-conformance-only-auth-secret-of-32-characters",
  });
  // Before Next's server modules load: `next start` sets it up the same way (tests/setup/next-runtime.ts).
  const { AsyncLocalStorage } = await import("node:async_hooks");
  (globalThis as typeof globalThis & { AsyncLocalStorage?: typeof AsyncLocalStorage }).AsyncLocalStorage ??= AsyncLocalStorage;
  const { boot } = await import("@/lib/adapters/boot");
  await boot({ role: "cli" });
  const { database } = await import("@/db");
  const { operatorContext } = await import("@/lib/base/context");
  const { newId } = await import("@/lib/base/ids");
  const { createAccount } = await import("@/lib/domain/accounts/create-account");
  const { createKey } = await import("@/lib/domain/keys/create-key");
  const route = await import("@/app/api/mcp/route");
  const ctx = operatorContext(await database());
  const account = await createAccount({
    ctx,
    // Nobody signs in to it: a random password nobody keeps.
    input: { email: `${newId("account")}@conformance.test`, password: randomBytes(24).toString("base64url"), confirmed: true },
  });
  const { key } = await createKey({
    ctx,
    input: { accountId: account.id, name: "MCP conformance", permissions: ["listings:read", "listings:write", "media:write"], days: 30 },
  });
  const context = { params: Promise.resolve({}) };
  const handlers: Record<string, (request: Request, ctx: typeof context) => Promise<Response>> = {
    POST: route.POST,
    GET: route.GET,
    DELETE: route.DELETE,
    OPTIONS: route.OPTIONS,
  };
  return {
    key,
    handle: async (request) => {
      const handler = new URL(request.url).pathname === "/api/mcp" ? handlers[request.method] : undefined;
      return handler ? handler(request, context) : new Response(null, { status: 404 });
    },
  };
}

function runConformance(url: string): Promise<number> {
  // The package needs Node 22 or later (it imports fs.globSync, and its express needs 22) though it
  // declares no engines: npx runs it on the npm registry's `node` package at 24, production's runtime,
  // whatever runs this script.
  const args = [
    "--yes",
    "--package",
    "node@24",
    "--package",
    conformancePackage,
    "conformance",
    "server",
    "--url",
    url,
    "--expected-failures",
    expectedFailures,
    "--output-dir",
    path.join(root, ".data/mcp-conformance"),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("npx", args, { stdio: "inherit", cwd: root });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const endpoint = await inProcessEndpoint();
  const server = await authorizingServer(endpoint.key, endpoint.handle);
  const url = `http://127.0.0.1:${server.port}/api/mcp`;
  console.log(`MCP conformance: ${conformancePackage} against ${url}`);
  try {
    return await runConformance(url);
  } finally {
    await server.close();
  }
}

process.exit(await main());
