import { spawn } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { describeOnceUnderTestPg } from "../support/engine";
import { closedPort } from "../support/local-http-server";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

/** instrumentation.ts's `register()` in a process of its own (tests/telemetry/register.ts), with `env` added. */
function register(env: Record<string, string>): Promise<{ sdkModules: number; recording: boolean }> {
  return new Promise((resolve, reject) => {
    const inherited = { ...process.env };
    delete inherited.OTEL_EXPORTER_OTLP_ENDPOINT;
    const child = spawn(tsx, [path.join(root, "tests/telemetry/register.ts")], {
      cwd: root,
      env: { ...inherited, NEXT_RUNTIME: "nodejs", PGLITE_DIR: "memory://", JOBS_RUNNER: "off", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`register() exited ${code}: ${stderr}`));
      else resolve(JSON.parse(line));
    });
  });
}

describeOnceUnderTestPg("tracing is off without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("the server's start-up loads no OpenTelemetry SDK module and records no span", { timeout: 60_000 }, async () => {
    expect(await register({})).toEqual({ sdkModules: 0, recording: false });
  });

  it("with the endpoint set, the same start-up loads the SDK and records spans", { timeout: 60_000 }, async () => {
    const { sdkModules, recording } = await register({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    expect(sdkModules).toBeGreaterThan(0);
    expect(recording).toBe(true);
  });
});
