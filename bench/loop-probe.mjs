// Event-loop delay of the process that loads it, for `npm run soak`: the soak starts the production
// server with NODE_OPTIONS="--import <this file>" and LOOP_PROBE_FILE set, so no product code
// changes. Every LOOP_PROBE_INTERVAL_MS (10 s) it appends one JSON line with this window's delay
// percentiles in milliseconds, then starts a new window. The histogram's timer fires every 10 ms and
// records the whole time between firings, so an idle loop reads about 10 ms: the probe writes what
// comes on top of those 10 ms, the delay proper. Without LOOP_PROBE_FILE it does nothing.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100);
  setInterval(
    () => {
      const sample = {
        pid: process.pid,
        at: Date.now(),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      };
      histogram.reset();
      try {
        appendFileSync(file, `${JSON.stringify(sample)}\n`);
      } catch {
        // The soak has gone; the probe must never take the server down.
      }
    },
    Number(process.env.LOOP_PROBE_INTERVAL_MS ?? 10_000),
  ).unref();
}
