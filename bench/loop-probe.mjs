// Event-loop delay of the process that loads it, for `npm run soak`: the soak starts the production
// server with NODE_OPTIONS="--import <this file>" and LOOP_PROBE_FILE set, so no product code
// changes. Every LOOP_PROBE_INTERVAL_MS (10 s) it appends one JSON line with this window's delay
// percentiles in milliseconds, then starts a new window. Without LOOP_PROBE_FILE it does nothing.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    const sample = { pid: process.pid, at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    histogram.reset();
    try {
      appendFileSync(file, `${JSON.stringify(sample)}\n`);
    } catch {
      // The soak has gone; the probe must never take the server down.
    }
  }, Number(process.env.LOOP_PROBE_INTERVAL_MS ?? 10_000)).unref();
}
