import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * Playwright loads this file in the runner and again in every worker; the runner picks a free port
 * once and the workers inherit it through the environment, so all of them talk to the same server.
 */
function freePort(): string {
  return execFileSync(process.execPath, [
    "-e",
    "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}

/**
 * `E2E_SERVER=http://localhost:3000` runs the specs against a server already running (`npm run dev`,
 * say) instead of starting one; `E2E_DATA_DIR` is then that server's PGlite folder (`.data/pglite`
 * unless set), whose lock names the operator channel the specs' `cli()` uses.
 */
const runningServer = process.env.E2E_SERVER;
if (runningServer) {
  process.env.E2E_PORT = new URL(runningServer).port || "80";
  process.env.E2E_DATA_DIR ??= ".data/pglite";
} else if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = freePort();
  // The data directory is named after the port, which no other live server holds, so it is never
  // shared with a dev server or another run; it starts empty so every run migrates and seeds afresh.
  rmSync(path.resolve(`.data/e2e-${process.env.E2E_PORT}`), { recursive: true, force: true });
}
const port = process.env.E2E_PORT;
const baseURL = runningServer ?? `http://127.0.0.1:${port}`;
const built = existsSync(path.join(".next", "BUILD_ID"));

/** Desktop Chrome on Debian's Chromium; Playwright never downloads a browser here. */
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    // As root Chromium needs --no-sandbox; the rest keep it off the (closed) network.
    args: [
      "--no-sandbox",
      "--headless",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // One worker a core. Each test makes its own accounts, keys and listings, so the tests of every file
  // run side by side, handed to the workers one by one (not a file to a worker, which would leave one
  // idle behind the longest file).
  fullyParallel: true,
  workers: 2,
  // Two workers' browsers and the server share the two cores, so a test takes up to twice its time
  // alone: the moderation desk's journeys took 20 s alone and over 30 s (the default) beside another.
  timeout: 60_000,
  // A cold first page on a fresh PGlite folder can take about 5 s.
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "list" : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // No trace: recording one (DOM snapshots at every action) costs every test, failed or not, on the
    // two cores the browsers share with the server; the portal pages' specs ran in 0.85 of the time
    // without it. A failed test keeps a screenshot; `npx playwright test --trace on` records traces.
    trace: "off",
    screenshot: "only-on-failure",
    // Pages take their language from Accept-Language: English unless a spec asks for another.
    locale: "en-US",
  },
  projects: [
    {
      // Tests tagged @long (a journey that waits for a webhook's 30 s retry) are handed to the workers
      // first, this project being first: started last, such a test ran on one worker while the other
      // sat idle for the last 40 s of the run.
      name: "chromium-long",
      grep: /@long/,
      grepInvert: /@clock/,
      teardown: "chromium-clock",
      use: chromium,
    },
    {
      name: "chromium",
      grepInvert: /@clock|@long/,
      teardown: "chromium-clock",
      use: chromium,
    },
    {
      // Tests tagged @clock run the server's jobs as of a later time (`jobs:run --now`), which acts on
      // every listing of the shared database (30 days later, every active listing is unconfirmed).
      // As the teardown of the other tests they run after all of them, so no other test finds its
      // listings changed under it; a run of some files or tests (-g) runs them too, after those.
      name: "chromium-clock",
      grep: /@clock/,
      use: chromium,
    },
  ],
  webServer: runningServer
    ? undefined
    : {
        // The production server, built first when no build is there yet (CI builds before this step).
        // Idle connections kept 2 minutes, longer than any test: a test's request context reuses its
        // connection after a pause, and with Node's 5 s default the server could close it just as the
        // request went out (seen: a DELETE failing with ECONNRESET between two steps of a long test).
        command: `${built ? "" : "npm run build && "}npm run start -- --hostname 127.0.0.1 --port ${port} --keepAliveTimeout 120000`,
        // Answers 401 without a key once the app, its database and its pipeline are up.
        url: `${baseURL}/api/v1/ping`,
        // Local receivers (127.0.0.1) are allowed for the webhook journey; private addresses stay refused.
        // TRUSTED_PROXY_HOPS=2: a browser's own X-Forwarded-For entry is its address (see signIn); requests without one stay 127.0.0.1.
        env: { PGLITE_DIR: `.data/e2e-${port}`, APP_URL: baseURL, UNSAFE_ALLOW_LOCAL_URLS: "1", TRUSTED_PROXY_HOPS: "2" },
        reuseExistingServer: false,
        timeout: 180_000,
        gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
        stdout: "ignore",
        stderr: "pipe",
      },
});
