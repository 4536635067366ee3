import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { checkPage, cli, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The webhooks dashboard as an integrator's developer lives it, against the production build and a
 * real receiver on this machine (the e2e server runs with UNSAFE_ALLOW_LOCAL_URLS=1): create a
 * webhook (secret shown once), Test, change a listing through the API and see the signed delivery
 * arrive and logged, break the receiver and watch the retry, resend by hand.
 */

const t = pageMessages("en").webhooks;

interface Received {
  id: string;
  timestamp: number;
  type: string;
  verified: boolean;
}

/** A Standard Webhooks receiver: verifies each request with the secret it is given, answers 204 or, when broken, 500. */
async function receiver() {
  const state = { secret: "", broken: false, received: [] as Received[] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        new Webhook(state.secret).verify(body, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      state.received.push({
        id: String(request.headers["webhook-id"]),
        timestamp: Number(request.headers["webhook-timestamp"]),
        type: (JSON.parse(body) as { type: string }).type,
        verified,
      });
      if (state.broken) response.writeHead(500).end("receiver is down");
      else response.writeHead(verified ? 204 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/listings`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const listing = sampleListing({ title: "Garsonieră luminoasă aproape de metrou" });

/**
 * Follows a link with one click. The log's page has no loading state, so the router moves to its
 * address only once the server has rendered it, which a busy machine can take seconds over: the
 * address is awaited for as long as any expectation (a second click would start the navigation again).
 */
async function openLink(page: Page, link: Locator, to: RegExp) {
  await link.click();
  await expect(page).toHaveURL(to);
}

async function logRow(page: Page, eventType: string) {
  return page.getByRole("row").filter({ hasText: eventType });
}

test(
  "create a webhook, Test it, see a listing's signed delivery logged, break the receiver, watch the retry, resend by hand",
  { tag: "@long" },
  async ({ browser, request }, testInfo) => {
    test.setTimeout(180_000);
    const hook = await receiver();
    try {
      const holder = await newHolder();
      const key = await holderKey(holder.email);
      const page = await signedInPage(browser, holder, "en", "/settings/api/webhooks");
      await expect(page.getByText(t.empty)).toBeVisible();
      await checkPage(page, testInfo, "webhooks-empty");

      // Created: the secret is shown once.
      await page.getByLabel(t.create.url).fill(hook.url);
      await page.getByRole("checkbox", { name: "listing.published" }).check();
      await page.getByRole("checkbox", { name: "listing.paused" }).check();
      await page.getByRole("button", { name: t.create.submit }).click();
      await expect(page.locator("[data-secret]")).toHaveText(/^whsec_/);
      // Said as it is: kept encrypted to sign the deliveries, not as a hash.
      await expect(page.getByText(pageMessages("en").secret.warningEncrypted)).toBeVisible();
      await expect(page.getByText(pageMessages("en").secret.warning)).toHaveCount(0);
      hook.state.secret = (await page.locator("[data-secret]").textContent())!;
      const card = page.getByRole("listitem").filter({ hasText: hook.url });
      await expect(card.getByText(t.statusActive)).toBeVisible();

      // Test: signed, its result said at once.
      await card.getByRole("button", { name: t.test }).click();
      await expect(card.getByRole("status")).toContainText("204");
      expect(hook.state.received).toEqual([expect.objectContaining({ type: "webhook.test", verified: true })]);
      await page.reload();
      await expect(page.locator("[data-secret]")).toHaveCount(0);
      await checkPage(page, testInfo, "webhooks-list");

      // A listing published: its delivery arrives signed and is in the log.
      const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: listing });
      expect(created.status(), await created.text()).toBe(201);
      const { data } = (await created.json()) as { data: { code: string } };
      await cli("moderation:approve", data.code);
      await expect
        .poll(() => hook.state.received.filter((r) => r.type === "listing.published"))
        .toEqual([expect.objectContaining({ verified: true })]);
      await openLink(page, card.getByRole("link", { name: t.deliveryLog }), /\/settings\/api\/webhooks\/wh_\w+$/);
      await expect(page.getByRole("heading", { level: 1, name: t.log.title })).toBeVisible();
      // The Test's delivery is in the log like the event's: delivered, its one attempt of one.
      const testRow = await logRow(page, "webhook.test");
      await expect(testRow).toContainText(t.log.statuses.succeeded);
      await expect(testRow).toContainText(format("en", t.log.attemptsOf, { attempts: 1, max: 1 }));
      await expect(testRow).toContainText(hook.state.received[0].id);
      await expect(await logRow(page, "listing.published")).toContainText(t.log.statuses.succeeded);
      await expect(await logRow(page, "listing.published")).toContainText("204");
      // The resend form's periods are dated as every date of the portal, never in the browser's own format.
      const periods = page.getByLabel(t.log.resendFailed.since).locator("option");
      await expect(periods).toHaveCount(6);
      for (const period of await periods.allTextContents()) {
        expect(period).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
        expect(period).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
      }

      // The receiver breaks: the paused listing's delivery fails and waits for its retry, 30 s later.
      hook.state.broken = true;
      const paused = await request.post(`/api/v1/listings/${data.code}/pause`, { headers: { authorization: `Bearer ${key}` } });
      expect(paused.status()).toBe(200);
      await expect.poll(() => hook.state.received.filter((r) => r.type === "listing.paused").length).toBe(1);
      await expect
        .poll(async () => {
          await page.reload();
          return (await logRow(page, "listing.paused")).textContent();
        })
        .toContain(t.log.statuses.pending);
      const pausedRow = await logRow(page, "listing.paused");
      await expect(pausedRow).toContainText("500");
      await expect(pausedRow).toContainText(format("en", t.log.attemptsOf, { attempts: 1, max: 7 }));
      await checkPage(page, testInfo, "webhook-delivery-log");

      // Mended: the retry comes on schedule with the same webhook-id and a later timestamp.
      hook.state.broken = false;
      await expect.poll(() => hook.state.received.filter((r) => r.type === "listing.paused").length, { timeout: 90_000 }).toBe(2);
      const [first, retry] = hook.state.received.filter((r) => r.type === "listing.paused");
      expect(retry.id).toBe(first.id);
      expect(retry.timestamp - first.timestamp).toBeGreaterThanOrEqual(30);
      expect(retry.verified).toBe(true);
      await expect
        .poll(async () => {
          await page.reload();
          return (await logRow(page, "listing.paused")).textContent();
        })
        .toContain(t.log.statuses.succeeded);
      await expect(await logRow(page, "listing.paused")).toContainText(format("en", t.log.attemptsOf, { attempts: 2, max: 7 }));

      // Resent by hand from the delivery's page: the same event again, with its request shown.
      await (await logRow(page, "listing.paused")).getByRole("link").click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("whd_");
      await expect(page.getByText(`webhook-id: ${first.id}`)).toBeVisible();
      // Its own subtitle, not the log's.
      await expect(page.locator("main")).toContainText(format("en", t.delivery.intro, { url: hook.url }));
      await expect(page.locator("main")).not.toContainText(format("en", t.log.intro, { url: hook.url }));
      await checkPage(page, testInfo, "webhook-delivery");
      await page.getByRole("button", { name: t.delivery.resend }).click();
      await expect(page.getByRole("status").filter({ hasText: t.delivery.resent })).toBeVisible();
      await expect.poll(() => hook.state.received.filter((r) => r.type === "listing.paused").length).toBe(3);
      expect(hook.state.received.at(-1)).toMatchObject({ id: first.id, verified: true });

      // Resent from the log too, one row's button, named after its delivery.
      await page.getByRole("link", { name: t.delivery.back }).click();
      const resendPublished = (await logRow(page, "listing.published")).getByRole("button", {
        name: /^Resend the delivery of listing\.published made /,
      });
      await resendPublished.click();
      await expect((await logRow(page, "listing.published")).getByRole("status")).toHaveText(t.delivery.resent);
      await expect.poll(() => hook.state.received.filter((r) => r.type === "listing.published").length).toBe(2);

      // A test delivery's Resend sends the same test again at once, and its row says the answer.
      await (await logRow(page, "webhook.test")).getByRole("button", { name: /^Resend the delivery of webhook\.test made / }).click();
      await expect((await logRow(page, "webhook.test")).getByRole("status")).toContainText("204");
      const tests = hook.state.received.filter((r) => r.type === "webhook.test");
      expect(tests).toEqual([expect.objectContaining({ verified: true }), expect.objectContaining({ id: tests[0].id, verified: true })]);

      // Another holder cannot open this webhook's log or delivery.
      const stranger = await signedInPage(browser, await newHolder());
      const logPath = new URL(page.url()).pathname.split("/deliveries/")[0];
      expect((await stranger.goto(logPath))?.status()).toBe(404);
      expect((await stranger.goto(new URL(page.url()).pathname))?.status()).toBe(404);

      // The activity tells the story.
      await page.goto("/settings/api/activity");
      const activity = pageMessages("en").activity.actions;
      await expect(page.getByText(format("en", activity["webhook.created"], { name: hook.url }))).toBeVisible();
      // Resent three times (from the delivery's page, and the event's and the test's rows in the log): one line each.
      await expect(page.getByText(format("en", activity["webhook.delivery_resent"], { name: hook.url }))).toHaveCount(3);
    } finally {
      await hook.close();
    }
  },
);

test("in Romanian: a private address refused at its field; a receiver that is not there, seen in the test result, the log and the delivery", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const ro = pageMessages("ro").webhooks;
  const holder = await newHolder({ locale: "ro" });
  const key = await holderKey(holder.email, "listings:write");
  const page = await signedInPage(browser, holder, "ro", "/settings/api/webhooks");
  await page.getByLabel(ro.create.url).fill("https://10.0.0.7/hooks");
  await page.getByRole("checkbox", { name: "listing.published" }).check();
  await page.getByRole("button", { name: ro.create.submit }).click();
  await expect(page.locator("#url-error")).toBeVisible();
  await expect(page.locator("[data-secret]")).toHaveCount(0);
  // The ticked event is kept for the next try.
  await expect(page.getByRole("checkbox", { name: "listing.published" })).toBeChecked();

  // A port nobody listens on: the test says why it failed, in Romanian.
  const closed = await receiver();
  await closed.close();
  await page.getByLabel(ro.create.url).fill(closed.url);
  await page.getByRole("button", { name: ro.create.submit }).click();
  await expect(page.locator("[data-secret]")).toHaveText(/^whsec_/);
  const card = page.getByRole("listitem").filter({ hasText: closed.url });
  await card.getByRole("button", { name: ro.test }).click();
  await expect(card.getByRole("alert")).toContainText(ro.errors.connection_failed);
  await checkPage(page, testInfo, "webhooks-ro");

  const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: listing });
  expect(created.status(), await created.text()).toBe(201);
  await cli("moderation:approve", ((await created.json()) as { data: { code: string } }).data.code);
  await openLink(page, card.getByRole("link", { name: ro.deliveryLog }), /\/settings\/api\/webhooks\/wh_\w+$/);
  await expect
    .poll(async () => {
      await page.reload();
      return (await logRow(page, "listing.published")).textContent();
    })
    .toContain(ro.errors.connection_failed);
  await expect(await logRow(page, "listing.published")).toContainText(ro.log.noAnswer);
  // The failed test is in the log too, failed at its one attempt, never retried.
  const failedTest = await logRow(page, "webhook.test");
  await expect(failedTest).toContainText(ro.log.statuses.failed);
  await expect(failedTest).toContainText(ro.errors.connection_failed);
  await expect(failedTest).toContainText(format("ro", ro.log.attemptsOf, { attempts: 1, max: 1 }));
  await checkPage(page, testInfo, "webhook-delivery-log-ro");
  await (await logRow(page, "listing.published")).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("whd_");
  await expect(page.getByText(ro.delivery.noResponse)).toBeVisible();
  await checkPage(page, testInfo, "webhook-delivery-ro");
});

test("stop, start, replace the secret and delete a webhook in the page; each said in the activity", async ({ browser }, testInfo) => {
  const page = await signedInPage(browser, await newHolder(), "en", "/settings/api/webhooks");
  await page.getByLabel(t.create.url).fill("https://8.8.8.8/hooks/crm");
  await page.getByRole("checkbox", { name: "listing.sold" }).check();
  await page.getByRole("button", { name: t.create.submit }).click();
  const first = (await page.locator("[data-secret]").textContent())!;
  expect(first).toMatch(/^whsec_/);
  const card = page.getByRole("listitem").filter({ hasText: "https://8.8.8.8/hooks/crm" });
  await expect(page.getByText(format("en", t.usage, { used: 1, limit: 5 }))).toBeVisible();

  await card.getByRole("button", { name: t.stop }).click();
  await expect(card.getByText(/^Stopped by you/)).toBeVisible();
  await card.getByRole("button", { name: t.start }).click();
  await expect(card.getByText(t.statusActive)).toBeVisible();

  // A new secret only after the question is confirmed; Cancel changes nothing.
  await card.getByRole("button", { name: t.rotate }).click();
  await card.getByRole("button", { name: t.cancel }).click();
  await expect(card.locator("[data-secret]")).toHaveCount(0);
  await card.getByRole("button", { name: t.rotate }).click();
  await card.getByRole("button", { name: t.rotateConfirm }).click();
  await expect(card.locator("[data-secret]")).toHaveText(/^whsec_/);
  expect(await card.locator("[data-secret]").textContent()).not.toBe(first);
  await checkPage(page, testInfo, "webhook-rotated");

  await card.getByRole("button", { name: t.delete }).click();
  await card.getByRole("button", { name: t.deleteConfirm }).click();
  await expect(page.getByText(t.empty)).toBeVisible();

  await page.goto("/settings/api/activity");
  const activity = pageMessages("en").activity.actions;
  for (const action of ["webhook.created", "webhook.stopped", "webhook.started", "webhook.secret_rotated", "webhook.deleted"] as const) {
    await expect(page.getByText(format("en", activity[action], { name: "https://8.8.8.8/hooks/crm" }))).toBeVisible();
  }
});
