import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Three projects, each run where it proves something (docs/development.md, Tests):
 * - unit: tests/unit, no database (opening one fails the test), in threads;
 * - integration: every other file, on the database: embedded PGlite by default, the run's PostgreSQL
 *   database under `npm run test:pg`. A worker runs its files one after another in one process
 *   (`isolate: false`: the app's modules and the database are loaded once per worker, not per file);
 *   tests/setup/each-file.ts puts back what a file changed. A file that must load the app's modules
 *   afresh (after changing the environment they read when loaded) is named `*.isolated.test.ts` and
 *   runs in a process of its own;
 * - faults: tests/faults, processes killed with SIGKILL and connections ended under load, each file in
 *   a process of its own;
 * - audit: tests/audit, after all the others: on PostgreSQL, the secret audit of the run's whole API log.
 */
const integrationSetup = {
  globalSetup: ["tests/setup/global.ts"],
  setupFiles: ["tests/setup/next-runtime.ts", "tests/setup/each-file.ts"],
};

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    env: {
      APP_ENV: "sandbox",
      APP_URL: "http://localhost:3000",
      PGLITE_DIR: "memory://",
      JOBS_RUNNER: "off",
      LOG_LEVEL: "silent",
      // Webhook secrets are encrypted with a key derived from it; without it the sandbox would write one beside the working folder.
      AUTH_SECRET: "a-test-only-auth-secret-of-32-characters-or-more",
      // Files of tests that do not choose a storage of their own go here, never to the working folder's .data/blobs.
      BLOB_DIR: path.join(os.tmpdir(), "listings-test-blobs"),
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One worker more than the cores (vitest's default leaves one idle): many files wait on a child
    // process, a timer or a socket part of their time, which a third worker fills (npm test took
    // 154 s against 166 s with two, one after the other).
    maxWorkers: os.availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          setupFiles: ["tests/setup/next-runtime.ts", "tests/setup/unit.ts"],
          pool: "threads",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          // tests/bundle and tests/fleet run the release bundle as processes of their own (vitest.bundle.config.ts:
          // npm run test:bundle, npm run test:fleet).
          exclude: [
            "tests/unit/**",
            "tests/faults/**",
            "tests/audit/**",
            "tests/bundle/**",
            "tests/fleet/**",
            "tests/**/*.isolated.test.ts",
          ],
          ...integrationSetup,
          pool: "forks",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration-isolated",
          include: ["tests/**/*.isolated.test.ts"],
          exclude: ["tests/faults/**"],
          ...integrationSetup,
          pool: "forks",
        },
      },
      { extends: true, test: { name: "faults", include: ["tests/faults/**/*.test.ts"], ...integrationSetup, pool: "forks" } },
      {
        extends: true,
        // After every other project (a later group): it reads what the whole run wrote.
        test: {
          name: "audit",
          include: ["tests/audit/*.test.ts"],
          globalSetup: ["tests/setup/global.ts"],
          setupFiles: ["tests/setup/next-runtime.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
