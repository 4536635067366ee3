import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:fleet` (docs/operations.md, Scaling out): the release bundle run as a fleet, two web
 * instances and a worker behind HAProxy, PostgreSQL behind PgBouncer, Redis; on the build `npm run build`
 * left in .next/standalone. Needs Debian's `haproxy` and `pgbouncer`, PostgreSQL and Redis.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/fleet/**/*.test.ts"],
    sequence: { concurrent: false },
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
