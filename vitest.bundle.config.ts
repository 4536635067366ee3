import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The release bundle run as processes of its own, on the build `npm run build` left in .next/standalone
 * (docs/operations.md): `npm run test:bundle` (tests/bundle, Deploy (self-hosted) and Deploy on Vercel)
 * and `npm run test:fleet` (tests/fleet, Scaling out: two web instances and a worker behind HAProxy,
 * PostgreSQL behind PgBouncer, Redis), each naming its folder. Apart from the default suite, which runs
 * the app's code in process: these need the build, PostgreSQL and Redis, and the fleet Debian's
 * `haproxy` and `pgbouncer` and PostgreSQL's server binaries.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/bundle/**/*.test.ts", "tests/fleet/**/*.test.ts"],
    // The steps of a journey follow each other; one start-up of the bundle serves them all.
    sequence: { concurrent: false },
    // One journey's servers at a time: each starts its own copies of the bundle on two cores.
    fileParallelism: false,
    // The fleet's faults: a load around a restart, a delivery's lease running out.
    testTimeout: 120_000,
    // Fetching Node 24 once, making the fleet's cluster and standby, migrating, starting the servers.
    hookTimeout: 240_000,
  },
});
