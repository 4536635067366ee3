import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { checkPage, cli, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The sandbox's "Send a test event" form on the webhooks page, as a developer testing a handler uses
 * it: without JavaScript, a listing's `listing.sold` fired from the form reaches a real receiver on
 * this machine signed, with the id the form said, and is in `GET /events`; a code of no listing of
 * theirs is said at the field. In Romanian, with JavaScript, the same form, checked for accessibility.
 */

interface Received {
  id: string;
  type: string;
  code: string;
  verified: boolean;
}

/** A Standard Webhooks receiver on a loopback port (the e2e server runs with UNSAFE_ALLOW_LOCAL_URLS=1). */
async function receiver() {
  const state = { secret: "", received: [] as Received[] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = true;
      try {
        new Webhook(state.secret).verify(body, request.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      const event = JSON.parse(body) as { type: string; data: { code: string } };
      state.received.push({ id: String(request.headers["webhook-id"]), type: event.type, code: event.data.code, verified });
      response.writeHead(verified ? 204 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/listings`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A holder with a key, a listing and a webhook to `url` subscribed to `events`. */
async function holderWithWebhook(url: string, events: string, locale: "en" | "ro", request: APIRequestContext) {
  const holder = await newHolder({ locale });
  const key = await holderKey(holder.email);
  const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: sampleListing() });
  expect(created.status(), await created.text()).toBe(201);
  const { code } = ((await created.json()) as { data: { code: string } }).data;
  const webhook = await cli<{ secret: string }>("webhook:create", "--email", holder.email, "--url", url, "--events", events);
  return { holder, key, code, secret: webhook.secret };
}

test("without JavaScript: a test event fired from the webhooks page arrives signed with the id it said, and a code of no listing is said at the field", async ({
  browser,
  request,
}) => {
  const t = pageMessages("en").webhooks.sandboxEvent;
  const hook = await receiver();
  try {
    const { holder, key, code, secret } = await holderWithWebhook(hook.url, "listing.sold,media.failed", "en", request);
    hook.state.secret = secret;
    const signedIn = await signedInPage(browser, holder, "en", "/settings/api/webhooks");
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: await signedIn.context().storageState() });
    await signedIn.context().close();
    const page = await context.newPage();
    await page.goto("/settings/api/webhooks");
    const form = page.getByRole("region", { name: t.heading });
    await expect(form).toBeVisible();

    await form.getByLabel(t.type).selectOption("listing.sold");
    await form.getByLabel(t.code).fill(code.toLowerCase());
    await form.getByRole("button", { name: t.submit }).click();
    const said = form.getByRole("status");
    await expect(said).toContainText(`(listing.sold) of listing ${code}`);
    const id = /evt_[0-9a-z]+/.exec((await said.textContent()) ?? "")![0];
    // The choices stay for the next event.
    await expect(form.getByLabel(t.type)).toHaveValue("listing.sold");
    await expect(form.getByLabel(t.code)).toHaveValue(code);

    await expect.poll(() => hook.state.received).toEqual([{ id, type: "listing.sold", code, verified: true }]);
    const events = await request.get("/api/v1/events", { headers: { authorization: `Bearer ${key}` } });
    const listed = ((await events.json()) as { data: { id: string; type: string; data: { status: string } }[] }).data;
    expect(listed.find((event) => event.id === id)).toMatchObject({ type: "listing.sold", data: { status: "pending" } });

    await form.getByLabel(t.code).fill("ZZZZZZZZ");
    await form.getByRole("button", { name: t.submit }).click();
    await expect(form.getByRole("alert")).toHaveText(t.notSent);
    await expect(form.locator("#sandbox-event-code-error")).toHaveText(t.noListing);
    await expect(form.getByLabel(t.code)).toHaveAttribute("aria-invalid", "true");
    expect(hook.state.received).toHaveLength(1);
    await context.close();
  } finally {
    await hook.close();
  }
});

test("in Romanian, with JavaScript: the form picks a listing of the account and sends media.failed", async ({
  browser,
  request,
}, testInfo) => {
  const t = pageMessages("ro").webhooks.sandboxEvent;
  const hook = await receiver();
  try {
    const { holder, code, secret } = await holderWithWebhook(hook.url, "media.failed", "ro", request);
    hook.state.secret = secret;
    const page = await signedInPage(browser, holder, "ro", "/settings/api/webhooks");
    const form = page.getByRole("region", { name: t.heading });
    await expect(form.getByText(t.intro)).toBeVisible();
    // The latest listings are offered to the code field.
    await expect(page.locator(`#sandbox-event-listings option[value="${code}"]`)).toHaveCount(1);
    await checkPage(page, testInfo, "webhooks-sandbox-event-ro");

    await form.getByLabel(t.type).selectOption("media.failed");
    await form.getByLabel(t.code).fill(code);
    await form.getByRole("button", { name: t.submit }).click();
    await expect(form.getByRole("status")).toContainText(`(media.failed) al anunțului ${code}`);
    await expect.poll(() => hook.state.received).toEqual([expect.objectContaining({ type: "media.failed", code, verified: true })]);
  } finally {
    await hook.close();
  }
});
