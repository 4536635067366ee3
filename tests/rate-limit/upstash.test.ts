import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { resetConfig } from "@/lib/base/config";
import { rateLimiter, rateRules, resetRateLimiter, type RateRule } from "@/lib/infra/rate-limit";
import { createMemoryRateLimiter } from "@/lib/infra/rate-limit/memory";
import { createUpstashRateLimiter } from "@/lib/infra/rate-limit/upstash";
import { logger } from "@/lib/base/logger";
import { freePort } from "@/db/pgbouncer";
import { withFrozenClock } from "../support/clock";
import { accountWithKey, call } from "../support/fixtures";
import { defaultRedisUrl, redisReachable, startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";

const redisUp = await redisReachable();
const requireRedis = process.env.REQUIRE_REDIS === "1";
if (!redisUp && requireRedis) {
  throw new Error(`REQUIRE_REDIS=1: the Upstash limiter must be tested on real Redis, but ${defaultRedisUrl} does not answer`);
}
if (!redisUp) console.warn(`Upstash rate limiter tests on real Redis skipped: no Redis answers on ${defaultRedisUrl}`);

/** 30 s into a minute-aligned window; the library reads Date.now(), so only Date is faked. */
const windowStart = Date.UTC(2026, 10, 22, 10, 0, 0);
const runPrefix = `test-ratelimit-${randomUUID()}`;

function upstashLimiter(url: string, token: string, timing: { timeoutMs?: number; probeIntervalMs?: number } = {}) {
  const warnings: string[] = [];
  const limiter = createUpstashRateLimiter({
    url,
    token,
    keyPrefix: runPrefix,
    fallback: createMemoryRateLimiter(),
    warn: (message) => warnings.push(message),
    ...timing,
  });
  return { limiter, warnings };
}

/**
 * An address where Redis does not answer: a server of this test that drops every connection. A port
 * merely found free could be taken meanwhile by another process's server, which would answer.
 */
const refusing = createServer();
refusing.on("connection", (socket) => socket.destroy());
const refusingUrl = async (): Promise<string> => {
  if (!refusing.listening) await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
};
afterAll(() => new Promise<void>((resolve) => (refusing.listening ? refusing.close(() => resolve()) : resolve())));

describe("Upstash rate limiter when Redis does not answer", () => {
  it("counts in the process instead and says so once", async () => {
    const { limiter, warnings } = upstashLimiter(await refusingUrl(), "token");
    expect(await limiter.hit("key_a", rateRules.key)).toMatchObject({ limited: false, limit: 300, remaining: 299 });
    expect(await limiter.hit("key_a", rateRules.key)).toMatchObject({ limited: false, limit: 300, remaining: 298 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Upstash Redis unavailable/);
  });

  it("still refuses past the limit, from the process's own count", async () => {
    const { limiter } = upstashLimiter(await refusingUrl(), "token");
    const rule: RateRule = { name: "fallback", limit: 2, windowSeconds: 60 };
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push((await limiter.hit("key_f", rule)).limited);
    expect(decisions).toEqual([false, false, true, true]);
  });

  it("does not hold the request when Redis is slow", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const { limiter, warnings } = upstashLimiter(`http://127.0.0.1:${port}`, "token", { timeoutMs: 50 });
      expect(await limiter.hit("key_a", rateRules.key)).toMatchObject({ limited: false, remaining: 299 });
      expect(warnings).toEqual([expect.stringContaining("(timeout)")]);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe("the API with UPSTASH_REDIS_REST_URL pointing where nothing answers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.UPSTASH_REDIS_REST_URL;
    delete process.env.UPSTASH_REDIS_REST_TOKEN;
    resetConfig();
    resetRateLimiter();
  });

  it("answers every request, counts them in this instance and logs the outage once", async () => {
    process.env.UPSTASH_REDIS_REST_URL = await refusingUrl();
    process.env.UPSTASH_REDIS_REST_TOKEN = "token";
    resetConfig();
    const warn = vi.spyOn(logger, "warn");
    const { key } = await accountWithKey();
    const remaining: number[] = [];
    await withFrozenClock(async () => {
      for (let i = 0; i < 3; i++) {
        const res = await call(ping, { path: "/ping", key });
        expect(res.status).toBe(200);
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      }
    });
    expect(remaining).toEqual([299, 298, 297]);
    expect(warn.mock.calls.filter(([message]) => /Upstash Redis unavailable/.test(message))).toHaveLength(1);
  });
});

describe.skipIf(!redisUp)(`Upstash rate limiter on real Redis through the REST bridge (skipped: no Redis on ${defaultRedisUrl})`, () => {
  let bridge: UpstashBridge;
  let redis: Redis;

  beforeAll(async () => {
    bridge = await startUpstashBridge();
    redis = new Redis(defaultRedisUrl);
  });

  afterEach(() => {
    vi.useRealTimers();
    delete process.env.UPSTASH_REDIS_REST_URL;
    delete process.env.UPSTASH_REDIS_REST_TOKEN;
    resetConfig();
    resetRateLimiter();
  });

  afterAll(async () => {
    const keys = [...(await redis.keys(`${runPrefix}:*`)), ...(await redis.keys(`ratelimit:*:${runPrefix}-*`))];
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await bridge?.close();
  });

  // What these tests count is Redis's answers: a first request slower than the production bound
  // of 1 s on a busy machine would open the circuit (tests/rate-limit/hung-upstash.test.ts has that).
  const patient = { timeoutMs: 10_000 };

  const freezeAt = (time: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(time);
  };

  it("lets 300 concurrent requests through and refuses the 301st with the header values", async () => {
    freezeAt(windowStart + 30_000);
    const { limiter, warnings } = upstashLimiter(bridge.url, bridge.token, patient);
    const decisions = await Promise.all(Array.from({ length: 300 }, () => limiter.hit("key_a", rateRules.key)));
    expect(decisions.every((decision) => !decision.limited && decision.limit === 300)).toBe(true);
    expect(decisions.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(await limiter.hit("key_a", rateRules.key)).toEqual({ limited: true, limit: 300, remaining: 0, resetSeconds: 30 });
    expect(warnings).toEqual([]);
  });

  it("counts refused requests in Redis, every one of them", async () => {
    freezeAt(windowStart + 30_000);
    const { limiter } = upstashLimiter(bridge.url, bridge.token, patient);
    const rule: RateRule = { name: "counted", limit: 3, windowSeconds: 60 };
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await limiter.hit("key_b", rule));
    expect(decisions.map((decision) => decision.limited)).toEqual([false, false, false, true, true, true, true, true]);
    const counterKey = `${runPrefix}:counted:key_b:${Math.floor((windowStart + 30_000) / 60_000)}`;
    expect(await redis.get(counterKey)).toBe("8");
  });

  it("frees the bucket when the window ends and keeps rules and buckets apart", async () => {
    freezeAt(windowStart + 59_500);
    const { limiter } = upstashLimiter(bridge.url, bridge.token, patient);
    const rule: RateRule = { name: "windowed", limit: 2, windowSeconds: 60 };
    await limiter.hit("key_c", rule);
    await limiter.hit("key_c", rule);
    expect(await limiter.hit("key_c", rule)).toEqual({ limited: true, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(await limiter.hit("key_d", rule)).toMatchObject({ limited: false, remaining: 1 });
    expect(await limiter.hit("key_c", rateRules.schema)).toMatchObject({ limited: false, limit: 60, remaining: 59 });
    vi.setSystemTime(windowStart + 60_000);
    expect(await limiter.hit("key_c", rule)).toEqual({ limited: false, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it("takes over from the process's counters once a probe finds Redis answering again, and says so", async () => {
    const port = await freePort();
    const { limiter, warnings } = upstashLimiter(`http://127.0.0.1:${port}`, bridge.token, { probeIntervalMs: 1 });
    await limiter.hit("key_e", rateRules.key);
    const late = await startUpstashBridge({ port, token: bridge.token });
    try {
      // Each hit answers from the process at once; one starts the background probe that closes the circuit.
      await expect
        .poll(
          async () => {
            await limiter.hit(`key_${randomUUID()}`, rateRules.key);
            return warnings;
          },
          { timeout: 10_000, interval: 10 },
        )
        .toEqual([expect.stringMatching(/unavailable/), expect.stringMatching(/answers again/)]);
      expect(await limiter.hit("key_e", rateRules.key)).toMatchObject({ limited: false, remaining: 299 });
    } finally {
      await late.close();
    }
  });

  it("is the process limiter when UPSTASH_REDIS_REST_URL and _TOKEN are set", async () => {
    process.env.UPSTASH_REDIS_REST_URL = bridge.url;
    process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;
    resetConfig();
    resetRateLimiter();
    const bucket = `${runPrefix}-${randomUUID()}`;
    expect(await rateLimiter().hit(bucket, rateRules.ip)).toMatchObject({ limited: false, limit: 300, remaining: 299 });
    expect(await redis.keys(`ratelimit:ip:${bucket}:*`)).toHaveLength(1);
  });

  it("is in memory when Upstash is not configured", async () => {
    const bucket = `${runPrefix}-${randomUUID()}`;
    expect(await rateLimiter().hit(bucket, rateRules.ip)).toMatchObject({ limited: false, remaining: 299 });
    expect(await redis.keys(`ratelimit:ip:${bucket}:*`)).toHaveLength(0);
  });
});
