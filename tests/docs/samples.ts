import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { vi } from "vitest";
import { codeSamples, guideSource, type CodeSample } from "@/lib/adapters/docs/content";
import type { GuideSlug } from "@/lib/adapters/docs/guides";
import type { Locale } from "@/lib/base/i18n";
import { inProcessFetch } from "../support/in-process-fetch";

const run = promisify(execFile);
const sdkEntry = path.resolve(import.meta.dirname, "../../sdk/src/index.ts");

/** The code blocks of a guide marked `test` (```ts title="create-listing.ts" test), by their title. */
export function testedSamples(locale: Locale, slug: GuideSlug): Map<string, CodeSample> {
  const samples = codeSamples(guideSource(locale, slug)).filter((sample) => sample.tested);
  return new Map(samples.map((sample) => [sample.title ?? "", sample]));
}

/**
 * The platform on a loopback port, answered by the route handlers in this process: what the guides
 * call `http://localhost:3000`. curl reaches it through a `.curlrc` with `connect-to`, so the
 * samples run exactly as written (the upload URL the API answers points at localhost:3000 too).
 */
export async function startBridge() {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const hasBody = !["GET", "HEAD"].includes(incoming.method ?? "GET");
    const request = new Request(`http://localhost:3000${incoming.url}`, {
      method: incoming.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    const response = await inProcessFetch(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const curlHome = mkdtempSync(path.join(os.tmpdir(), "docs-curl-"));
  writeFileSync(path.join(curlHome, ".curlrc"), `connect-to = "localhost:3000:127.0.0.1:${(server.address() as AddressInfo).port}"\n`);
  return { curlHome, close: () => new Promise((done) => server.close(done)) };
}

/** A shell sample run by bash (`set -euo pipefail`) with real curl and jq, in `cwd`; answers its standard output. */
export async function runShell(sample: CodeSample, options: { curlHome: string; cwd: string; env: Record<string, string> }) {
  const { stdout } = await run("bash", ["-c", `set -euo pipefail\n${sample.code}`], {
    cwd: options.cwd,
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "",
      HOME: options.curlHome,
      CURL_HOME: options.curlHome,
      NO_PROXY: "*",
      ...options.env,
    },
  });
  return stdout;
}

/** A folder of the integrator's files (their photo), with the samples written out beside it. */
export const workFolder = () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "docs-samples-"));
  mkdirSync(folder, { recursive: true });
  return folder;
};

/**
 * A TypeScript sample imported as a module, as `npx tsx <file>` runs it: the client's package name
 * points at sdk/src, `fetch` answers from the route handlers in this process, `env` is its
 * environment. Answers the module and the lines it printed.
 */
export async function runTypeScript<M = Record<string, unknown>>(
  sample: CodeSample,
  options: { folder: string; env: Record<string, string> },
) {
  const file = path.join(options.folder, `${Math.random().toString(36).slice(2)}-${sample.title}`);
  writeFileSync(file, sample.code.replaceAll('"@listings-platform/client"', JSON.stringify(sdkEntry)));
  for (const [name, value] of Object.entries(options.env)) vi.stubEnv(name, value);
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => inProcessFetch(new Request(input, init)));
  const printed: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
  try {
    const loaded = (await import(pathToFileURL(file).href)) as M;
    return { module: loaded, printed };
  } finally {
    log.mockRestore();
    vi.unstubAllGlobals();
  }
}
