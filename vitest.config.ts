import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/each-file.ts"],
    // Each test file gets its own database (an in-memory PGlite loaded from a migrated template,
    // or the run's PostgreSQL database), its own jobs runner state and its own rate-limit memory.
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
    pool: "forks",
  },
});
