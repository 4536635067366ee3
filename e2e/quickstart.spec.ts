import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { codeSamples, guideSource, type CodeSample } from "@/lib/adapters/docs/content";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { newHolder, signedInPage } from "./support";

/**
 * The quickstart (content/docs/<language>/quickstart.mdx) followed as written against the e2e server:
 * its portal steps clicked in the portal, its shell blocks run in order in one bash session (so what a
 * block exports, the next one uses) with real curl and jq, its receiver started by its own command,
 * until the receiver prints the published listing's webhook. A block that drifts fails here.
 *
 * What differs from a reader's machine, and only that: the account is the test's own (the demo
 * account is shared by the whole suite); the guide's `http://localhost:3000` reaches the e2e server
 * through curl's `connect-to` (in the `.curlrc` of the session's HOME); the receiver listens on a free
 * port instead of 4000; and the client comes from the repository's `sdk/src` instead of the packed
 * tarball step 4 installs from the registry (the folder links the repository's node_modules for `tsx`).
 */

const repository = path.resolve(import.meta.dirname, "..");
const sdkEntry = path.join(repository, "sdk/src/index.ts");

/** The blocks the session does not run, each done another way (see above): the server's start and the client's install. */
const doneOtherwise = (sample: CodeSample) => sample.code.includes("npm run dev") || sample.code.includes("npm pack");

function freePort(): number {
  const found = spawnSync(process.execPath, [
    "-e",
    "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]);
  return Number(found.stdout.toString());
}

/** The guide's shell blocks and its receiver, in the guide's order. */
function quickstart(locale: "en" | "ro") {
  const samples = codeSamples(guideSource(locale, "quickstart"));
  const shell = samples.filter((sample) => sample.lang === "sh" && !doneOtherwise(sample));
  const receiver = samples.find((sample) => sample.title === "webhook-receiver.ts");
  const start = shell.findIndex((sample) => sample.title === "start-receiver.sh");
  if (!receiver || start < 0) throw new Error(`the ${locale} quickstart has no receiver or no command that starts it`);
  return { receiver, before: shell.slice(0, start), startReceiver: shell[start], after: shell.slice(start + 1) };
}

for (const locale of ["en", "ro"] as const) {
  test(`the ${locale} quickstart, followed as written, ends with the published listing's webhook received`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    const began = Date.now();
    const t = pageMessages(locale);
    const guide = quickstart(locale);
    const origin = new URL(testInfo.project.use.baseURL!);
    const receiverPort = freePort();

    // The reader's machine: a HOME whose ~/my-integration is the folder of step 4, curl sent to the e2e server.
    const home = mkdtempSync(path.join(os.tmpdir(), "quickstart-"));
    writeFileSync(path.join(home, ".curlrc"), `connect-to = "localhost:3000:${origin.hostname}:${origin.port}"\n`);
    const folder = path.join(home, "my-integration");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "package.json"), JSON.stringify({ type: "module" }));
    symlinkSync(path.join(repository, "node_modules"), path.join(folder, "node_modules"));
    writeFileSync(
      path.join(folder, "webhook-receiver.ts"),
      guide.receiver.code.replaceAll('"@listings-platform/client"', JSON.stringify(sdkEntry)),
    );
    const environment: NodeJS.ProcessEnv = {
      NODE_ENV: "production",
      PATH: process.env.PATH ?? "",
      HOME: home,
      CURL_HOME: home,
      NO_PROXY: "*",
      PORT: String(receiverPort),
    };

    // 2. Sign in and create a key, as the guide says.
    const page = await signedInPage(browser, await newHolder({ locale }), locale, "/settings/api/keys");
    await page.getByLabel(t.apiKeys.create.name, { exact: true }).fill("quickstart");
    for (const permission of ["listings:read", "listings:write", "media:write"])
      await page.getByRole("checkbox", { name: permission }).check();
    await page.getByRole("button", { name: t.apiKeys.create.submit }).click();
    await expect(page.locator("[data-secret]")).toHaveText(/^key_.+\|svc_test_/);
    const key = (await page.locator("[data-secret]").textContent())!;

    // 3. Register the webhook at the guide's address (its port the receiver's).
    const address = /`(http:\/\/localhost:4000\/webhooks)`/
      .exec(guideSource(locale, "quickstart"))![1]
      .replace("4000", String(receiverPort));
    await page.goto("/settings/api/webhooks");
    // The address's hint says what the sandbox accepts, as step 1 explains.
    await expect(page.getByText(t.webhooks.create.urlHintLocal)).toBeVisible();
    await page.getByLabel(t.webhooks.create.url).fill(address);
    for (const event of ["listing.published", "media.failed"]) await page.getByRole("checkbox", { name: event }).check();
    await page.getByRole("button", { name: t.webhooks.create.submit }).click();
    await expect(page.locator("[data-secret]")).toHaveText(/^whsec_/);
    const secret = (await page.locator("[data-secret]").textContent())!;

    // The placeholders a reader pastes over, pasted over; the rest of each block runs as written.
    const pasted = (sample: CodeSample) =>
      sample.code.replace("paste-the-whole-key-here", key).replace("whsec_paste-the-secret-here", secret);
    const session = (samples: CodeSample[]) => `set -euo pipefail\n${samples.map(pasted).join("\n")}`;

    // 4. The receiver, started by the guide's command after the guide's exports, in the background as written.
    const printed: string[] = [];
    const receiver: ChildProcess = spawn("bash", ["-c", `${session([...guide.before, guide.startReceiver])}\nwait`], {
      cwd: folder,
      env: environment,
      detached: true,
    });
    receiver.stdout!.on("data", (chunk: Buffer) => printed.push(...chunk.toString().split("\n").filter(Boolean)));
    receiver.stderr!.on("data", (chunk: Buffer) => printed.push(...chunk.toString().split("\n").filter(Boolean)));
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${receiverPort}/`, { method: "POST" }).catch(() => null))?.status)
        .toBe(400);

      // "Send a test" beside the webhook: the receiver prints it, the portal says it answered 204.
      const card = page.getByRole("listitem").filter({ hasText: address });
      await card.getByRole("button", { name: t.webhooks.test }).click();
      await expect(card.getByRole("status")).toContainText("204");
      await expect.poll(() => printed.find((line) => line.startsWith("received webhook.test "))).toBeTruthy();

      // 5–7. Create, add the sandbox's photo, publish: the same terminal as the exports of steps 2 and 3
      // (the receiver runs in its background), each block after the one before.
      const run = spawnSync("bash", ["-c", session([...guide.before, ...guide.after])], {
        cwd: folder,
        env: environment,
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const listing = JSON.parse(readFileSync(path.join(folder, "listing.json"), "utf8")).data;
      expect(listing).toMatchObject({ status: "pending", external_ref: "quickstart-1" });
      expect(run.stdout).toContain('{"queued":1}');
      expect(run.stdout).toContain(`"status":"active"`);

      // The receiver prints the listing.published event of that listing.
      await expect
        .poll(() => printed.find((line) => line.startsWith("received listing.published ")), { timeout: 60_000 })
        .toContain(`"code":"${listing.code}"`);
      testInfo.annotations.push({
        type: "quickstart",
        description: `${locale}: from sign-in to the received webhook in ${Date.now() - began} ms`,
      });

      // The listing's public page, which the guide says to open.
      await page.goto(`/listings/${listing.code}`);
      await expect(page.getByRole("heading", { level: 1, name: "Apartament 3 camere Floreasca" })).toBeVisible();
    } finally {
      process.kill(-receiver.pid!, "SIGTERM");
    }
  });
}
