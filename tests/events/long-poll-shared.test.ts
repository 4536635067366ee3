import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/events/route";
import { eventWaiters, maxWaitingPerKey } from "@/lib/domain/events";
import { resetRateLimiter, sharedWaitingPlaces } from "@/lib/infra/rate-limit";
import { createUpstashWaitingPlaces } from "@/lib/infra/rate-limit/waiting-places";
import { accountWithKey, call } from "../support/fixtures";
import { defaultRedisUrl, redisReachable, startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";
import { openEventsRequest, recordEvents, startApiHttpServer } from "./support";
import { restoreEnv, setEnv } from "../support/env";

/**
 * The long polls' waiting places across instances: with Upstash Redis configured, a key's requests
 * waiting on other instances count too (tests/events/long-poll.test.ts has one instance's count).
 * Real Redis through the REST bridge, as the rate limiter's tests (tests/rate-limit/upstash.test.ts).
 */
const redisUp = await redisReachable();
if (!redisUp && process.env.REQUIRE_REDIS === "1") {
  throw new Error(`REQUIRE_REDIS=1: the shared waiting places must be tested on real Redis, but ${defaultRedisUrl} does not answer`);
}
if (!redisUp) console.warn(`shared waiting places tests skipped: no Redis answers on ${defaultRedisUrl}`);

describe.skipIf(!redisUp)(`long polling's waiting places in Upstash Redis (skipped: no Redis on ${defaultRedisUrl})`, () => {
  let bridge: UpstashBridge;
  let redis: Redis;
  // Every key of this file, its limiter's too, is under a prefix of its own in the Redis every test shares (the bridge adds it).
  const prefix = `test-waiting-${randomUUID()}`;
  const waitingKey = (caller: string) => `${prefix}:waiting:${caller}`;

  beforeAll(async () => {
    bridge = await startUpstashBridge({ keyPrefix: prefix });
    redis = new Redis(defaultRedisUrl);
  });

  afterEach(() => {
    restoreEnv();
    resetRateLimiter();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await bridge?.close();
  });

  it("hold at most the limit of a caller's places, forget those past their deadline, and free one given back", async () => {
    // Patient: a first request slower than the production bound of 1 s on a busy machine would open
    // the circuit, and this test is about Redis's answers (tests/rate-limit/hung-upstash.test.ts has the circuit).
    const places = createUpstashWaitingPlaces({ url: bridge.url, token: bridge.token, keyPrefix: "waiting", timeoutMs: 10_000 });
    const now = Date.now();
    const take = (holder: string, deadline: number, at = now) => places.take({ caller: "api:key_a", holder, limit: 2, deadline, now: at });

    expect(await take("first", now + 20_000)).toBeNull();
    expect(await take("second", now + 30_000)).toBeNull();
    // Refused, with when the first place held ends.
    expect(await take("third", now + 30_000)).toBe(now + 20_000);
    // Another caller's places are its own.
    expect(await places.take({ caller: "api:key_b", holder: "other", limit: 2, deadline: now + 20_000, now })).toBeNull();

    await places.give({ caller: "api:key_a", holder: "first" });
    expect(await take("third", now + 30_000)).toBeNull();
    expect(await take("fourth", now + 30_000)).toBe(now + 30_000);
    // Once past their deadline (a process killed while waiting never gives them back), places are forgotten.
    expect(await take("later", now + 90_000, now + 31_000)).toBeNull();
  });

  it("refuse a key's request with 429 while its requests on other instances hold every place, and let it wait once one is given back", async () => {
    setEnv({ UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token });
    resetRateLimiter();
    const { account, key, keyId } = await accountWithKey();
    const [seen] = await recordEvents(account.id, 1);
    const shared = sharedWaitingPlaces()!;
    const caller = `api:${keyId}`;
    const now = Date.now();
    // Two requests of the key waiting on other instances.
    for (const holder of ["elsewhere-1", "elsewhere-2"])
      expect(await shared.take({ caller, holder, limit: maxWaitingPerKey, deadline: now + 25_000, now })).toBeNull();

    const refused = await call(GET, { path: `/events?after=${seen.id}&wait=20`, key });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "too_many_waiting_requests" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(20);

    await shared.give({ caller, holder: "elsewhere-1" });
    const waited = await call(GET, { path: `/events?after=${seen.id}&wait=1`, key });
    expect(waited.status).toBe(200);
    expect(waited.json).toEqual({ data: [], meta: { next: null } });
    // The request gave its place back: two can be taken again besides the one still held elsewhere.
    await expect.poll(async () => redis.zcard(waitingKey(caller)), { timeout: 5_000, interval: 20 }).toBe(1);
  });

  it("give a request's place back in Redis at once when its client goes away mid-wait, so the key can wait again right away", async () => {
    setEnv({ UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token });
    resetRateLimiter();
    const server = await startApiHttpServer();
    try {
      const { account, key, keyId } = await accountWithKey();
      const [seen] = await recordEvents(account.id, 1);
      const caller = `api:${keyId}`;
      const query = `?after=${seen.id}&wait=30`;
      const gone = [openEventsRequest(server.origin, key, query), openEventsRequest(server.origin, key, query)];
      await expect.poll(async () => redis.zcard(waitingKey(caller)), { timeout: 10_000, interval: 20 }).toBe(maxWaitingPerKey);

      for (const request of gone) request.hangUp();
      // Held to their deadline, the places would refuse the key's next waits on every instance with 429 for 30 s.
      await expect.poll(async () => redis.zcard(waitingKey(caller)), { timeout: 5_000, interval: 20 }).toBe(0);
      const waiting = [call(GET, { path: `/events${query}`, key }), call(GET, { path: `/events${query}`, key })];
      await expect.poll(() => eventWaiters().waiting(caller), { timeout: 10_000, interval: 10 }).toBe(maxWaitingPerKey);
      await expect.poll(async () => redis.zcard(waitingKey(caller)), { timeout: 10_000, interval: 20 }).toBe(maxWaitingPerKey);
      const [committed] = await recordEvents(account.id, 1);
      for (const res of await Promise.all(waiting)) expect(res.json).toEqual({ data: [committed], meta: { next: null } });
    } finally {
      await server.close();
    }
  });
});
