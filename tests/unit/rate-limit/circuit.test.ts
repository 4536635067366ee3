import { describe, expect, it } from "vitest";
import { createCircuit } from "@/lib/infra/rate-limit/circuit";

/** A circuit on a clock of the test's, whose probes the test answers one by one. */
function circuitAt(probeIntervalMs: number) {
  const clock = { now: 0 };
  const told: string[] = [];
  const probes: { answer: (ok: boolean) => void }[] = [];
  const circuit = createCircuit({
    probe: () => new Promise<void>((resolve, reject) => probes.push({ answer: (ok) => (ok ? resolve() : reject(new Error("no answer"))) })),
    probeIntervalMs,
    onOpen: (reason) => told.push(`open: ${reason}`),
    onClose: () => told.push("closed"),
    now: () => clock.now,
  });
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { circuit, clock, told, probes, settle };
}

describe("the circuit in front of Upstash Redis", () => {
  it("lets calls through until one fails, then none, and says it opened once", () => {
    const { circuit, told, probes } = circuitAt(5000);
    expect(circuit.allows()).toBe(true);
    circuit.failed("timeout");
    circuit.failed("fetch failed");
    expect([circuit.allows(), circuit.allows()]).toEqual([false, false]);
    expect(told).toEqual(["open: timeout"]);
    expect(probes).toHaveLength(0);
  });

  it("probes once the interval has passed, one probe at a time, and again an interval after a failed one", async () => {
    const { circuit, clock, told, probes, settle } = circuitAt(5000);
    circuit.failed("timeout");
    clock.now = 4999;
    circuit.allows();
    expect(probes).toHaveLength(0);
    clock.now = 5000;
    for (let i = 0; i < 10; i++) expect(circuit.allows()).toBe(false);
    expect(probes).toHaveLength(1);

    clock.now = 6000;
    probes[0].answer(false);
    await settle();
    clock.now = 10_999;
    expect(circuit.allows()).toBe(false);
    expect(probes).toHaveLength(1);
    clock.now = 11_000;
    expect(circuit.allows()).toBe(false);
    expect(probes).toHaveLength(2);
    expect(told).toEqual(["open: timeout"]);
  });

  it("closes when a probe answers, says so once, and opens again at the next failure", async () => {
    const { circuit, clock, told, probes, settle } = circuitAt(5000);
    circuit.failed("timeout");
    clock.now = 5000;
    circuit.allows();
    probes[0].answer(true);
    await settle();
    expect([circuit.allows(), circuit.allows()]).toEqual([true, true]);
    expect(probes).toHaveLength(1);
    circuit.failed("fetch failed");
    expect(circuit.allows()).toBe(false);
    expect(told).toEqual(["open: timeout", "closed", "open: fetch failed"]);
  });
});
