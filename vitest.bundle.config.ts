import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * `npm run test:bundle` (README, Deploy (self-hosted)): the release bundle's journey, on the build
 * `npm run build` left in .next/standalone. Apart from the default suite, which runs the app's code in
 * process: this runs the bundle as processes of its own, so it needs the build, PostgreSQL and Redis.
 */
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/bundle/**/*.test.ts"],
    // The steps of the journey follow each other; one start-up of the bundle serves them all.
    sequence: { concurrent: false },
    testTimeout: 60_000,
    // Fetching Node 24 once, migrating, starting the server on a cold database.
    hookTimeout: 180_000,
  },
});
