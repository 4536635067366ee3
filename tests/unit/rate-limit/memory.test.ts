import { describe, expect, it } from "vitest";
import { rateRules } from "@/lib/infra/rate-limit";
import { createMemoryRateLimiter } from "@/lib/infra/rate-limit/memory";

/** 20 s into a minute-aligned window, so the window frees 40 s later. */
const windowStart = Date.UTC(2026, 10, 22, 10, 0, 0);

function limiterAt(start: number) {
  const clock = { now: start };
  return { clock, limiter: createMemoryRateLimiter({ now: () => clock.now }) };
}

async function hitTimes(limiter: ReturnType<typeof createMemoryRateLimiter>, bucket: string, times: number) {
  const decisions = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.hit(bucket, rateRules.key));
  return decisions;
}

describe("in-memory rate limiter", () => {
  it("lets 300 requests a minute through and refuses the 301st with the header values", async () => {
    const { limiter } = limiterAt(windowStart + 20_000);
    const decisions = await hitTimes(limiter, "key_a", 301);

    expect(decisions[0]).toEqual({ limited: false, limit: 300, remaining: 299, resetSeconds: 40 });
    expect(decisions[299]).toEqual({ limited: false, limit: 300, remaining: 0, resetSeconds: 40 });
    expect(decisions[300]).toEqual({ limited: true, limit: 300, remaining: 0, resetSeconds: 40 });
  });

  it("counts refused requests, so a client that keeps calling stays refused until the window ends", async () => {
    const { clock, limiter } = limiterAt(windowStart);
    await hitTimes(limiter, "key_a", 300);
    for (let second = 0; second < 60; second++) {
      clock.now = windowStart + second * 1000 + 500;
      expect(await limiter.hit("key_a", rateRules.key)).toMatchObject({ limited: true, remaining: 0, resetSeconds: 60 - second });
    }
    clock.now = windowStart + 60_000;
    expect(await limiter.hit("key_a", rateRules.key)).toEqual({ limited: false, limit: 300, remaining: 299, resetSeconds: 60 });
  });

  it("keeps buckets and rules apart", async () => {
    const { limiter } = limiterAt(windowStart);
    await hitTimes(limiter, "key_a", 301);
    expect(await limiter.hit("key_b", rateRules.key)).toMatchObject({ limited: false, remaining: 299 });
    expect(await limiter.hit("key_a", rateRules.ip)).toMatchObject({ limited: false, remaining: 299 });
    expect(await limiter.hit("key_a", rateRules.schema)).toMatchObject({ limited: false, limit: 60, remaining: 59 });
  });

  it("applies the vocabulary's 60 per minute", async () => {
    const { limiter } = limiterAt(windowStart);
    for (let i = 0; i < 60; i++) expect((await limiter.hit("203.0.113.7", rateRules.schema)).limited).toBe(false);
    expect(await limiter.hit("203.0.113.7", rateRules.schema)).toEqual({ limited: true, limit: 60, remaining: 0, resetSeconds: 60 });
  });

  it("sweeps expired windows so memory follows recent traffic only", async () => {
    const { clock, limiter } = limiterAt(windowStart);
    for (let i = 0; i < 1000; i++) await limiter.hit(`198.51.100.${i}`, rateRules.ip);
    expect(limiter.trackedWindows()).toBe(1000);
    clock.now = windowStart + 120_000;
    await limiter.hit("198.51.100.1", rateRules.ip);
    expect(limiter.trackedWindows()).toBe(1);
  });

  it("never reports less than a second to wait", async () => {
    const { limiter } = limiterAt(windowStart + 59_999);
    expect((await limiter.hit("key_a", rateRules.key)).resetSeconds).toBe(1);
  });
});
