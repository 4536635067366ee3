import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { accountWithKey } from "../support/fixtures";
import { startHungEndpoint, type HungEndpoint } from "../support/hung-endpoint";
import { pgliteChildDatabase, postgresChildDatabase, type ChildDatabase } from "../support/child-database";
import { startApiServer } from "./support/api-server-process";
import { onPostgresRun } from "../support/engine";

/**
 * SIGTERM to a real server process (`api-server.ts`, as tests/faults/shutdown.test.ts starts it)
 * whose OpenTelemetry collector accepts connections and never answers. The exporters' own timeout
 * is set high (`OTEL_EXPORTER_OTLP_TIMEOUT`, as an operator may): the exit must not depend on it.
 * The process must exit 0 within its grace and a margin, having tried the collector and said that
 * the traces and metrics it could not send are dropped. Without the bound the SDK's flush held the
 * exit for its 30 s export time-out.
 */

const graceMs = 2000;
/** Far above the grace (a start-up and a drain on a busy machine), far below the SDK's 30 s. */
const exitDeadlineMs = graceMs + 10_000;

let collector: HungEndpoint;
let child: ChildProcess | undefined;

beforeAll(async () => {
  collector = await startHungEndpoint();
});

afterEach(() => {
  child?.kill("SIGKILL");
});

afterAll(() => collector?.close());

async function signalledWithHungCollector(target: ChildDatabase): Promise<void> {
  await target.prepare();
  try {
    const { key } = await accountWithKey();
    await target.letGo();
    const server = await startApiServer(target, {
      LOG_LEVEL: "info",
      SHUTDOWN_GRACE_MS: String(graceMs),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_TIMEOUT: "60000",
    });
    child = server.process;
    // Requests whose spans and duration metrics wait in the SDK for the shutdown to send them.
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.origin}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
    }

    server.process.kill("SIGTERM");
    let deadline: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<"still running">((resolve) => {
      deadline = setTimeout(() => resolve("still running"), exitDeadlineMs);
    });
    const code = await Promise.race([server.exited, stillRunning]).finally(() => clearTimeout(deadline));
    const stderr = server.stderr();

    expect(code, stderr).toBe(0);
    expect(collector.connections()).toBeGreaterThan(0);
    const messages = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toEqual(
      expect.arrayContaining(["shutting down", "shutdown: traces and metrics not sent within the grace; they are dropped", "shut down"]),
    );
  } finally {
    await target.dispose();
  }
}

const exitsInTime = "exits 0 within its grace, dropping the traces and metrics the collector never takes";
const timeoutMs = 120_000;

describe.skipIf(!onPostgresRun)(
  `SIGTERM with a hung OpenTelemetry collector, on PostgreSQL${onPostgresRun ? "" : " (skipped: npm run test:pg runs it)"}`,
  () => {
    it(exitsInTime, () => signalledWithHungCollector(postgresChildDatabase("test_shutdown_otel")), timeoutMs);
  },
);

describe.skipIf(onPostgresRun)(
  `SIGTERM with a hung OpenTelemetry collector, on PGlite${onPostgresRun ? " (skipped: npm test runs it)" : ""}`,
  () => {
    it(exitsInTime, () => signalledWithHungCollector(pgliteChildDatabase("listings-shutdown-otel")), timeoutMs);
  },
);
