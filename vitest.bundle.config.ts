import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:bundle` (docs/operations.md, Deploy (self-hosted) and Deploy on Vercel): the release bundle's
 * journeys, on the build `npm run build` left in .next/standalone. Apart from the default suite, which
 * runs the app's code in process: these run the bundle as processes of their own, so they need the
 * build, PostgreSQL and Redis.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/bundle/**/*.test.ts"],
    // The steps of the journey follow each other; one start-up of the bundle serves them all.
    sequence: { concurrent: false },
    // One journey's server at a time: each starts its own copy of the bundle on two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    // Fetching Node 24 once, migrating, starting the server on a cold database.
    hookTimeout: 180_000,
  },
});
