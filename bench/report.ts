import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mergeFigures, type Figure } from "./load";

export interface Measurement {
  name: string;
  figure: Figure;
  /** Status codes this measurement may answer; anything else makes the run invalid. */
  expected: number[];
  /** The machine's 1-minute load average when the run began: other work on the machine skews figures. */
  loadAverage: number;
}

export interface Check {
  name: string;
  value: number;
  unit: string;
  /** `min`: the value must be at least `target`; `max`: at most; `info`: no target, printed for comparison. */
  kind: "min" | "max" | "info";
  target?: number;
  /** How the value is computed, printed under the table. */
  how: string;
}

export const passes = (check: Check) =>
  check.kind === "info" || check.target === undefined
    ? true
    : check.kind === "min"
      ? check.value >= check.target
      : check.value <= check.target;
const verdict = (check: Check) => (check.kind === "info" ? "info" : passes(check) ? "PASS" : "MISS");
export const unexpected = (m: Measurement) => Object.keys(m.figure.statuses).filter((s) => !m.expected.includes(Number(s)));
export const valid = (m: Measurement) => unexpected(m).length === 0 && m.figure.errors === 0;
export const successes = (f: Figure) => Object.entries(f.statuses).reduce((sum, [code, n]) => sum + (code.startsWith("2") ? n : 0), 0);

/** A figure's turns (bench/run.ts, `inTurns`) as one measurement, at the mean of their load averages. */
export const mergeTurns = ([first, ...rest]: Measurement[]): Measurement => ({
  name: `${first.name} (${rest.length + 1} turns)`,
  figure: rest.reduce((figure, turn) => mergeFigures(figure, turn.figure), first.figure),
  expected: first.expected,
  loadAverage: [first, ...rest].reduce((sum, turn) => sum + turn.loadAverage, 0) / (rest.length + 1),
});

/** The CPU's split by thread, e.g. ` (main 1 702, V8 210, other 4)`. */
const threadsOf = (f: Figure) =>
  f.serverThreadsUs
    ? ` (${Object.entries(f.serverThreadsUs)
        .map(([group, us]) => `${group} ${fmt(us)}`)
        .join(", ")})`
    : "";

export function measurementLine(m: Measurement): string {
  const f = m.figure;
  const statuses = Object.entries(f.statuses)
    .map(([code, n]) => `${code}×${n}`)
    .join(" ");
  const flag = valid(m)
    ? ""
    : `  INVALID: ${[...unexpected(m).map((s) => `unexpected ${s}`), f.errors ? `${f.errors} errors` : ""].filter(Boolean).join(", ")}`;
  return `${m.name.padEnd(56)} ${fmt(f.requestsPerSecond).padStart(8)} req/s  p50 ${fmt(f.p50Ms).padStart(5)} ms  p99 ${fmt(f.p99Ms).padStart(5)} ms  ${f.serverCpuUs !== undefined ? `CPU ${String(f.serverCpuUs).padStart(5)} µs/req${threadsOf(f)}  ` : ""}${f.databaseCpuUs !== undefined ? `PostgreSQL ${fmt(f.databaseCpuUs)} µs/req  ` : ""}${f.poolerCpuUs !== undefined ? `PgBouncer ${fmt(f.poolerCpuUs)} µs/req  ` : ""}(${f.requests} in ${f.seconds} s: ${statuses}; load ${m.loadAverage.toFixed(1)})${flag}`;
}

export function summaryTable(measurements: Measurement[], checks: Check[]): string {
  const rows = [
    ...measurements.map((m) => [
      m.name,
      `${fmt(m.figure.requestsPerSecond)} req/s, p99 ${fmt(m.figure.p99Ms)} ms`,
      "",
      valid(m) ? "" : "INVALID",
    ]),
    ...checks.map((c) => [
      c.name,
      `${fmt(c.value)}${c.unit}`,
      c.kind === "info" ? "" : `${c.kind === "min" ? "≥" : "≤"} ${c.target}${c.unit}`,
      verdict(c),
    ]),
  ];
  const header = ["figure", "value", "target", "result"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  // Checks measured the same way on each runtime share one explanation.
  const explained = new Map<string, string[]>();
  for (const c of checks) explained.set(c.how, [...(explained.get(c.how) ?? []), c.name]);
  const notes = [...explained].map(([how, names]) => `${names.join(", ")}: ${how}`);
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line), "", ...notes].join("\n");
}

export function writeResults(
  file: string,
  content: { settings: Record<string, unknown>; runtimes: Record<string, unknown>; measurements: Measurement[]; checks: Check[] },
): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const body = {
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    settings: content.settings,
    runtimes: content.runtimes,
    measurements: content.measurements.map((m) => ({ ...m, valid: valid(m) })),
    checks: content.checks.map((c) => ({ ...c, result: verdict(c).toUpperCase() })),
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1));
