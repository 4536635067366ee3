import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EventWaiters, type WaitEnd } from "@/lib/domain/events/waiters";

/**
 * The bookkeeping of `GET /events?wait=` (lib/domain/events/waiters.ts) on vitest's clock: the limit
 * per caller, the deadline, waking by account, and the shutdown.
 */
describe("EventWaiters", () => {
  beforeEach(() => {
    // setImmediate stays real: `settled` uses it to tell a pending wait from an ended one.
    vi.useFakeTimers({ now: new Date("2026-11-20T10:00:00.000Z"), toFake: ["setTimeout", "clearTimeout", "Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Whether the promise has settled, and with what, once the pending callbacks have run. */
  async function settled(promise: Promise<WaitEnd>): Promise<WaitEnd | "pending"> {
    return Promise.race([promise, new Promise<"pending">((resolve) => setImmediate(() => resolve("pending")))]);
  }

  it("lets a caller hold two places, refuses a third, and frees a place when a waiter leaves", () => {
    const waiters = new EventWaiters(2);
    const deadline = Date.now() + 30_000;
    const [a, b, c] = [waiters.watch("acc_1"), waiters.watch("acc_1"), waiters.watch("acc_1")];
    expect(a.hold("api:key_1", deadline)).toBe(true);
    expect(b.hold("api:key_1", deadline)).toBe(true);
    expect(c.hold("api:key_1", deadline)).toBe(false);
    expect(waiters.waiting("api:key_1")).toBe(2);
    // Another key of the same account has places of its own.
    expect(waiters.watch("acc_1").hold("api:key_2", deadline)).toBe(true);
    a.leave();
    expect(waiters.waiting("api:key_1")).toBe(1);
    expect(waiters.watch("acc_1").hold("api:key_1", deadline)).toBe(true);
  });

  it("says how long until the first of a caller's waits ends, in whole seconds, at least 1", () => {
    const waiters = new EventWaiters(2);
    waiters.watch("acc_1").hold("api:key_1", Date.now() + 25_000);
    waiters.watch("acc_1").hold("api:key_1", Date.now() + 12_300);
    expect(waiters.secondsUntilFree("api:key_1")).toBe(13);
    expect(waiters.secondsUntilFree("api:key_1", Date.now() + 12_299)).toBe(1);
    expect(waiters.secondsUntilFree("api:key_other")).toBe(1);
  });

  it("ends a wait with timeout at its deadline", async () => {
    const waiters = new EventWaiters(2);
    const waiter = waiters.watch("acc_1");
    waiter.hold("api:key_1", Date.now() + 5_000);
    const end = waiter.next();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(end)).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(await end).toBe("timeout");
    waiter.leave();
    expect(waiters.waiting("api:key_1")).toBe(0);
  });

  it("wakes the account's waiters and no other account's", async () => {
    const waiters = new EventWaiters(2);
    const mine = waiters.watch("acc_1");
    const theirs = waiters.watch("acc_2");
    mine.hold("api:key_1", Date.now() + 30_000);
    theirs.hold("api:key_2", Date.now() + 30_000);
    const [myEnd, theirEnd] = [mine.next(), theirs.next()];
    waiters.wake("acc_1");
    expect(await myEnd).toBe("woken");
    expect(await settled(theirEnd)).toBe("pending");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await theirEnd).toBe("timeout");
  });

  it("keeps a wake that comes before the wait (while the request reads), so the next wait ends at once", async () => {
    const waiters = new EventWaiters(2);
    const waiter = waiters.watch("acc_1");
    // The commit lands between watching and holding: the read may have missed it.
    waiters.wake("acc_1");
    waiter.hold("api:key_1", Date.now() + 30_000);
    expect(await waiter.next()).toBe("woken");
    // Once consumed, the next wait waits again.
    const again = waiter.next();
    expect(await settled(again)).toBe("pending");
    waiters.wake("acc_1");
    expect(await again).toBe("woken");
  });

  it("ends every wait with shutdown on close, and any wait after it at once", async () => {
    const waiters = new EventWaiters(2);
    const waiting = waiters.watch("acc_1");
    const notYetHolding = waiters.watch("acc_2");
    waiting.hold("api:key_1", Date.now() + 30_000);
    const end = waiting.next();
    waiters.close();
    expect(await end).toBe("shutdown");
    notYetHolding.hold("api:key_2", Date.now() + 30_000);
    expect(await notYetHolding.next()).toBe("shutdown");
    const later = waiters.watch("acc_3");
    later.hold("api:key_3", Date.now() + 30_000);
    expect(await later.next()).toBe("shutdown");
  });

  it("ends a pending wait with left when its waiter leaves (its client went away), and any later wait of it at once", async () => {
    const waiters = new EventWaiters(2);
    const waiter = waiters.watch("acc_1");
    waiter.hold("api:key_1", Date.now() + 30_000);
    const end = waiter.next();
    expect(await settled(end)).toBe("pending");
    waiter.leave();
    expect(await settled(end)).toBe("left");
    expect(waiters.waiting("api:key_1")).toBe(0);
    expect(await settled(waiter.next())).toBe("left");
  });

  it("refuses to wait without a place, and to hold two", () => {
    const waiters = new EventWaiters(2);
    const waiter = waiters.watch("acc_1");
    expect(() => waiter.next()).toThrow(/hold a place/);
    waiter.hold("api:key_1", Date.now() + 1_000);
    expect(() => waiter.hold("api:key_1", Date.now() + 1_000)).toThrow(/one place/);
  });
});
