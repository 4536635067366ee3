import { afterEach, describe, expect, it, vi } from "vitest";
import { processSlot } from "@/lib/base/process-registry";

afterEach(() => processSlot("shutdownBegun").set(undefined));

describe("the process registry", () => {
  it("gives a module loaded twice in one process (Next.js's route bundles and instrumentation) the same state", async () => {
    const instrumentations = await import("@/lib/adapters/lifecycle/shutdown-state");
    vi.resetModules();
    const routes = await import("@/lib/adapters/lifecycle/shutdown-state");
    expect(routes).not.toBe(instrumentations);

    expect(routes.shutdownBegun()).toBe(false);
    expect(instrumentations.beginShutdown()).toBe(true);
    expect(routes.shutdownBegun()).toBe(true);
    expect(routes.beginShutdown()).toBe(false);
  });

  it("makes a value once, on first use, and forgets it when it is set to undefined", () => {
    const slot = processSlot<{ made: number }>("shutdownBegun");
    let made = 0;
    const first = slot.getOrMake(() => ({ made: ++made }));
    expect(slot.getOrMake(() => ({ made: ++made }))).toBe(first);
    slot.set(undefined);
    expect(slot.get()).toBeUndefined();
    expect(slot.getOrMake(() => ({ made: ++made }))).toEqual({ made: 2 });
  });
});
