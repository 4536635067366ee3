import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as ready } from "@/app/api/health/ready/route";
import { GET as live } from "@/app/api/health/route";
import { closeDatabase, configureDatabase, database } from "@/db";
import { beginShutdown } from "@/lib/adapters/lifecycle/shutdown-state";
import { databaseSettings } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { redisReachable, startUpstashBridge } from "../support/upstash-bridge";
import { restoreEnv, setEnv } from "../support/env";

/** How this file's database is set everywhere else (tests/setup/each-file.ts), put back after a case that moves it. */
const fileSettings = () => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE });
const unreachableDatabase = "postgres://operator:s3cret-pw@127.0.0.1:1/listings";
const redisUp = await redisReachable();

async function probe() {
  const response = await ready();
  const text = await response.text();
  return { status: response.status, cacheControl: response.headers.get("cache-control"), text, body: JSON.parse(text) };
}

/** Nothing of where a dependency is or how it is reached may be in the answer: it is public. */
function expectNothingSecret(text: string, ...secrets: string[]) {
  for (const secret of ["127.0.0.1", "s3cret", "ECONNREFUSED", ...secrets]) expect(text).not.toContain(secret);
}

// Opened before the first probe, as a serving instance's is: on PostgreSQL nothing else opens it
// first, and opening it (the pooler probe, the schema check) may outlast the check's 2 s bound on a busy machine.
beforeAll(() => database());

afterEach(async () => {
  restoreEnv();
  // The shutdown flag is the process's; this file's process goes on serving other files.
  processSlot("shutdownBegun").set(undefined);
});

describe("GET /api/health/ready", () => {
  it("answers 200 ok with the database's check and its time, not cached", async () => {
    const { status, cacheControl, body } = await probe();
    expect(status).toBe(200);
    expect(cacheControl).toBe("no-store");
    expect(body).toEqual({ status: "ok", checks: { database: { status: "ok", ms: expect.any(Number) } } });
  });

  it("answers 503 naming the database when it cannot be reached, without its address or password", async () => {
    await closeDatabase();
    configureDatabase(() => ({ url: unreachableDatabase, dataDir: "memory://" }));
    try {
      const { status, body, text } = await probe();
      expect(status).toBe(503);
      expect(body).toEqual({ status: "unavailable", checks: { database: { status: "failing", ms: expect.any(Number) } } });
      expectNothingSecret(text, "operator");
    } finally {
      await closeDatabase();
      configureDatabase(fileSettings);
      // Opened again here: loading the template takes longer than a check's bound on a busy machine, and
      // the next cases are about other checks.
      await database();
    }
  });

  it("answers 200 degraded when Redis does not answer: the rate limiter counts per process and requests are served", async () => {
    setEnv({ UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1", UPSTASH_REDIS_REST_TOKEN: "redis-token-secret" });
    const { status, body, text } = await probe();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "degraded",
      checks: { database: { status: "ok", ms: expect.any(Number) }, redis: { status: "failing", ms: expect.any(Number) } },
    });
    expectNothingSecret(text, "redis-token-secret");
  });

  it("logs a check when it starts failing and when it recovers, not at every probe", async () => {
    const warn = vi.spyOn(logger, "warn");
    const info = vi.spyOn(logger, "info");
    try {
      setEnv({ INNGEST_SIGNING_KEY: "signkey-test-only" });
      await probe();
      await probe();
      expect(warn.mock.calls.filter(([message]) => message === "readiness check failing")).toEqual([
        ["readiness check failing", { check: "inngest", reason: expect.stringContaining("INNGEST_EVENT_KEY") }],
      ]);
      setEnv({ INNGEST_EVENT_KEY: "inngest-event-key-secret" });
      await probe();
      await probe();
      expect(info.mock.calls.filter(([message]) => message === "readiness check ok again")).toEqual([
        ["readiness check ok again", { check: "inngest" }],
      ]);
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
  });

  it.runIf(redisUp)("answers 200 ok with Redis's check when it answers PING", async () => {
    const bridge = await startUpstashBridge();
    try {
      setEnv({ UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token });
      const { status, body } = await probe();
      expect(status).toBe(200);
      expect(body.status).toBe("ok");
      expect(body.checks.redis).toEqual({ status: "ok", ms: expect.any(Number) });
    } finally {
      await bridge.close();
    }
  });

  it("answers 503 naming Blob when its configuration is incomplete or malformed", async () => {
    setEnv({ VERCEL_BLOB_API_URL: "http://127.0.0.1:1/api" });
    const withoutToken = await probe();
    expect(withoutToken.status).toBe(503);
    expect(withoutToken.body).toMatchObject({ status: "unavailable", checks: { database: { status: "ok" }, blob: { status: "failing" } } });
    expectNothingSecret(withoutToken.text);

    setEnv({ BLOB_READ_WRITE_TOKEN: "not-a-blob-token-secret" });
    const malformed = await probe();
    expect(malformed.status).toBe(503);
    expect(malformed.body.checks.blob).toEqual({ status: "failing" });
    expectNothingSecret(malformed.text, "not-a-blob-token-secret");

    setEnv({ BLOB_READ_WRITE_TOKEN: "vercel_blob_rw_store1_secret" });
    const complete = await probe();
    expect(complete.status).toBe(200);
    expect(complete.body.checks.blob).toEqual({ status: "ok" });
  });

  it("answers 503 naming Inngest when only one of its keys is set", async () => {
    setEnv({ INNGEST_EVENT_KEY: "inngest-event-key-secret" });
    const half = await probe();
    expect(half.status).toBe(503);
    expect(half.body).toMatchObject({ status: "unavailable", checks: { inngest: { status: "failing" } } });
    expectNothingSecret(half.text, "inngest-event-key-secret");

    setEnv({ INNGEST_SIGNING_KEY: "signkey-test-0123" });
    const both = await probe();
    expect(both.status).toBe(200);
    expect(both.body.checks.inngest).toEqual({ status: "ok" });
  });

  it("answers 503 from the moment shutdown begins, while liveness still answers 200", async () => {
    expect(beginShutdown()).toBe(true);
    const { status, cacheControl, body } = await probe();
    expect(status).toBe(503);
    expect(cacheControl).toBe("no-store");
    expect(body).toEqual({ status: "unavailable", checks: { shutdown: { status: "failing" } } });
    expect(live().status).toBe(200);
  });
});
