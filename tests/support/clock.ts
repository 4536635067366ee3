import { vi } from "vitest";
import { resetRateLimiter } from "@/lib/infra/rate-limit";

/**
 * Runs `test` with `Date` standing still, so that a fixed rate-limit window (aligned to the clock's
 * minutes) cannot roll over in the middle of a test that counts requests in one window.
 */
export async function withFrozenClock(test: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date());
  resetRateLimiter();
  try {
    await test();
  } finally {
    vi.useRealTimers();
    resetRateLimiter();
  }
}
