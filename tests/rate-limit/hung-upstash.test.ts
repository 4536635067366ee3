import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/base/logger";
import { rateRules, type RateRule } from "@/lib/infra/rate-limit";
import { createMemoryRateLimiter } from "@/lib/infra/rate-limit/memory";
import { createUpstashRateLimiter } from "@/lib/infra/rate-limit/upstash";
import { createUpstashWaitingPlaces } from "@/lib/infra/rate-limit/waiting-places";
import { describeOnceUnderTestPg, onPostgresRun } from "../support/engine";
import { startHungEndpoint, type HungEndpoint } from "../support/hung-endpoint";
import { defaultRedisUrl, redisReachable, startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";

/**
 * An Upstash endpoint that accepts connections and never answers (`startHungEndpoint`, real
 * sockets). The first call that times out opens the circuit; from then on the limiter and the
 * waiting places answer from the process without a call reaching the endpoint, its open sockets
 * stay a handful however many checks are made, and once the endpoint answers (piped to the REST
 * bridge on real Redis) a background probe closes the circuit and Redis counts again. What reaches
 * the endpoint is counted there, never timed.
 */
const redisUp = onPostgresRun && (await redisReachable());
if (onPostgresRun && !redisUp && process.env.REQUIRE_REDIS === "1") {
  throw new Error(`REQUIRE_REDIS=1: the circuit's recovery must be tested on real Redis, but ${defaultRedisUrl} does not answer`);
}
if (onPostgresRun && !redisUp) console.warn(`recovery from a hung Upstash endpoint skipped: no Redis answers on ${defaultRedisUrl}`);

const checks = 50;
/**
 * What stays open at the endpoint however many checks are made: the probe in flight, the aborted
 * one before it (whose close reaches the server a moment later) and the connections Node's HTTP
 * client opens ahead (at most 4 together, measured). Without aborting, one more per check.
 */
const socketBound = 5;
/** Short, so the first check's wait is short; the circuit, not this, is what the test is about. */
const timeoutMs = 200;
const runPrefix = `test-hung-${randomUUID()}`;
/** A minute-aligned window 30 s in, so Redis's and the process's counters stay in one window. */
const windowStart = Date.UTC(2026, 10, 22, 10, 0, 0);

let hung: HungEndpoint;

// An endpoint per test: what it counts is that test's alone.
beforeEach(async () => {
  hung = await startHungEndpoint();
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await hung.close();
});

function limiterAt(url: string, probeIntervalMs: number) {
  const warnings: string[] = [];
  const limiter = createUpstashRateLimiter({
    url,
    token: "token",
    keyPrefix: runPrefix,
    fallback: createMemoryRateLimiter(),
    warn: (message) => warnings.push(message),
    timeoutMs,
    probeIntervalMs,
  });
  return { limiter, warnings };
}

const calls = () => hung.commands().filter((command) => command !== "ping");
const probes = () => hung.commands().filter((command) => command === "ping");
/**
 * The one call made before the circuit opened, seen at the endpoint unless it was aborted before
 * its request was written (a cold first request on a busy machine). It may arrive after the check
 * it belongs to has been answered, so a test reads it at the end, with every later call.
 */
const callsBeforeOpening = (command = "evalsha") => (calls().length === 0 ? [] : [command]);

describeOnceUnderTestPg("the rate limiter against an Upstash endpoint that never answers", () => {
  it("opens its circuit at the first timeout, then answers every check from the process without calling the endpoint", async () => {
    const { limiter, warnings } = limiterAt(hung.url, 60_000);
    const rule: RateRule = { name: "hung", limit: 40, windowSeconds: 60 };
    const bucket = `key_${randomUUID()}`;

    expect(await limiter.hit(bucket, rule)).toMatchObject({ limited: false, remaining: 39 });
    expect(warnings).toEqual([expect.stringMatching(/^rate limit: Upstash Redis unavailable \(timeout\)/)]);

    const decisions = [];
    for (let i = 0; i < checks; i++) decisions.push(await limiter.hit(bucket, rule));
    // The process's own count: the limit still holds, from the 41st check on.
    expect(decisions.map((decision) => decision.remaining)).toEqual(Array.from({ length: checks }, (_, i) => Math.max(0, 38 - i)));
    expect(decisions.filter((decision) => decision.limited)).toHaveLength(checks + 1 - rule.limit);
    expect(calls()).toEqual(callsBeforeOpening());
    expect(hung.mostOpenSockets()).toBeLessThanOrEqual(socketBound);
    expect(warnings).toHaveLength(1);
  });

  it("probes one PING at a time while open, and its sockets stay bounded however many checks are made", async () => {
    const { limiter, warnings } = limiterAt(hung.url, 1);
    await limiter.hit(`key_${randomUUID()}`, rateRules.key);
    let made = 1;
    // Every check starts a probe when none is in flight; a probe lasts until it is aborted.
    await expect
      .poll(
        async () => {
          for (let i = 0; i < checks; i++, made++) await limiter.hit(`key_${randomUUID()}`, rateRules.key);
          return probes().length;
        },
        { timeout: 30_000, interval: 10 },
      )
      .toBeGreaterThanOrEqual(10);
    expect(made).toBeGreaterThan(checks);
    expect(calls()).toEqual(callsBeforeOpening());
    expect(hung.openSockets()).toBeLessThanOrEqual(socketBound);
    expect(hung.mostOpenSockets()).toBeLessThanOrEqual(socketBound);
    expect(warnings).toHaveLength(1);
  });
});

describeOnceUnderTestPg("long polling's waiting places against an Upstash endpoint that never answers", () => {
  it("count per instance from the first timeout on, without calling the endpoint, and say so once", async () => {
    const warn = vi.spyOn(logger, "warn");
    const places = createUpstashWaitingPlaces({ url: hung.url, token: "token", keyPrefix: runPrefix, probeIntervalMs: 60_000 });
    const now = Date.now();
    expect(await places.take({ caller: "api:key_w", holder: "first", limit: 2, deadline: now + 30_000, now })).toBeNull();
    for (let i = 0; i < checks; i++) {
      expect(await places.take({ caller: "api:key_w", holder: `holder-${i}`, limit: 2, deadline: now + 30_000, now })).toBeNull();
      await places.give({ caller: "api:key_w", holder: `holder-${i}` });
    }
    expect(calls()).toEqual(callsBeforeOpening("eval"));
    expect(hung.mostOpenSockets()).toBeLessThanOrEqual(socketBound);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      "long polling: Upstash Redis unavailable; waiting requests counted per instance until it answers",
    ]);
  });
});

const skippedBecause = !onPostgresRun ? "the same on either engine; npm run test:pg runs it" : `no Redis on ${defaultRedisUrl}`;
describe.skipIf(!redisUp)(`once the hung endpoint answers again${redisUp ? "" : ` (skipped: ${skippedBecause})`}`, () => {
  let bridge: UpstashBridge;
  let redis: Redis;

  beforeAll(async () => {
    bridge = await startUpstashBridge({ token: "token" });
    redis = new Redis(defaultRedisUrl);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${runPrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await bridge?.close();
  });

  it("a background probe closes the circuit, says so once, and Redis counts the checks again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(windowStart + 30_000);
    const { limiter, warnings } = limiterAt(hung.url, 1);
    const rule: RateRule = { name: "recovered", limit: 10, windowSeconds: 60 };
    const bucket = `key_${randomUUID()}`;
    // Counted by the process while the endpoint hangs: 9 left of its 10 after the first, 4 after six.
    for (let i = 0; i < 6; i++) await limiter.hit(bucket, rule);
    expect(await limiter.hit(bucket, rule)).toMatchObject({ remaining: 3 });
    // Two probes seen: the call made before the circuit opened has been aborted by then (the second
    // probe starts after the first one's abort, which came later than that call's). A call still
    // in flight would be retried once when its connection closes, and reach Redis.
    await expect
      .poll(
        async () => {
          await limiter.hit(`key_${randomUUID()}`, rule);
          return probes().length;
        },
        { timeout: 30_000, interval: 20 },
      )
      .toBeGreaterThanOrEqual(2);

    hung.forwardTo(Number(new URL(bridge.url).port));
    await expect
      .poll(
        async () => {
          await limiter.hit(`key_${randomUUID()}`, rule);
          return warnings;
        },
        { timeout: 30_000, interval: 20 },
      )
      .toEqual([expect.stringMatching(/unavailable \(timeout\)/), "rate limit: Upstash Redis answers again"]);

    // Redis's counter, not the process's: the bucket's first check there.
    expect(await limiter.hit(bucket, rule)).toMatchObject({ limited: false, remaining: 9 });
    const counterKey = `${runPrefix}:recovered:${bucket}:${Math.floor((windowStart + 30_000) / 60_000)}`;
    expect(await redis.get(counterKey)).toBe("1");
  });
});
