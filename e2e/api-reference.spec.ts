import { expect, test, type Page } from "@playwright/test";
import { catalogueTexts } from "@/lib/adapters/openapi/localize";
import { checkPage, expectPageHeaders, openReferenceOperation, ownKey, screenshot, watchPolicy } from "./support";

/**
 * /docs/api is Scalar's reference (components/scalar-reference.tsx): drawn from the OpenAPI document
 * in the page's language, webhooks included, bundled so that nothing it loads or sends leaves this
 * origin, and sending "try it" requests to this server with a key pasted into the page, which no
 * storage of the browser keeps.
 */

/** Every request the page sends to another origin, as it happens (the machines have no internet, so one would also fail). */
function requestsOutside(page: Page): string[] {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== origin) outside.push(request.url());
  });
  return outside;
}

/** What the browser keeps for this origin: local and session storage, and the IndexedDB databases' records. */
async function storedTexts(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const records: unknown[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const store of db.objectStoreNames) {
        const all = db.transaction(store).objectStore(store).getAll();
        records.push(await new Promise((resolve) => (all.onsuccess = () => resolve(all.result))));
      }
      db.close();
    }
    return JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, records });
  });
}

for (const { locale, browserLocale } of [
  { locale: "ro", browserLocale: "ro-RO" },
  { locale: "en", browserLocale: "en-US" },
] as const) {
  test(`the reference (${locale}) shows the document in the page's language, its webhooks too, and nothing leaves this origin; security headers, no CSP violation, accessible, no horizontal scroll at 360 px`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ locale: browserLocale });
    const page = await context.newPage();
    const outside = requestsOutside(page);
    const violations = await watchPolicy(page);
    const documentRequest = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/v1/openapi.json");
    const response = await page.goto("/docs/api");
    expect(response?.status()).toBe(200);
    // Scalar sets styles inline: this page alone allows them; scripts stay nonce-only.
    expectPageHeaders(response!, { inlineStyles: true });
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    expect(new URL((await documentRequest).url()).search).toBe(locale === "en" ? "" : "?locale=ro");
    const texts = catalogueTexts(locale);
    // Tags are shown by their names in the page's language (`x-displayName`).
    await openReferenceOperation(page, texts.tagNames.Keys, texts.operations.ping.summary);
    await checkPage(page, testInfo, `reference-${locale}`);

    // The webhooks, one per event type, from the document's `webhooks`.
    await page
      .locator("aside")
      .getByRole("button", { name: new RegExp(`^${texts.tagNames.Webhooks}`) })
      .click();
    await expect(page.getByRole("heading", { name: texts.operations.listingPublishedWebhook.summary, exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: texts.operations.webhookTestWebhook.summary, exact: true })).toBeVisible();

    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto("/docs/api");
    // The first tag's section, drawn with the first screen (the operations below it are drawn later).
    await expect(page.getByRole("region", { name: texts.tagNames.Keys }).getByText(texts.tags.Keys, { exact: true })).toBeVisible();
    await screenshot(page, testInfo, `reference-${locale}-360px-reloaded`);
    expect(outside).toEqual([]);
    expect(await violations()).toEqual([]);
    await context.close();
  });
}

test("try it sends a real request to this server with the pasted key, which no browser storage keeps", async ({ page }) => {
  const key = await ownKey("listings:read");
  const outside = requestsOutside(page);
  await page.goto("/docs/api");
  await openReferenceOperation(page, "Keys", "Check a key");
  await page.getByPlaceholder("Token").filter({ visible: true }).first().fill(key);

  await page.getByRole("button", { name: /Test Request.*\/ping/ }).click();
  const dialog = page.getByRole("dialog");
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/v1/ping");
  await dialog.getByRole("button", { name: /^Send/ }).first().click();
  const request = await sent;
  // This origin's /api/v1 (the document's server), straight from the browser, with the key as a bearer token.
  expect(new URL(request.url()).origin).toBe(new URL(page.url()).origin);
  expect(request.headers().authorization).toBe(`Bearer ${key}`);
  const response = await request.response();
  expect(response?.status()).toBe(200);
  expect(await response?.json()).toMatchObject({ data: { pong: true } });
  await expect(dialog.getByText("200").first()).toBeVisible();

  // The key lives in the page's memory only: not in localStorage, sessionStorage or IndexedDB.
  const secret = key.split("|")[1];
  expect(await storedTexts(page)).not.toContain(secret);
  await page.reload();
  await openReferenceOperation(page, "Keys", "Check a key");
  await expect(page.getByPlaceholder("Token").filter({ visible: true }).first()).toHaveValue("");
  expect(outside).toEqual([]);
});

test("try it sends an operation's example body as shown, and it succeeds", async ({ page }) => {
  const key = await ownKey("listings:write");
  await page.goto("/docs/api");
  await page.getByPlaceholder("Token").filter({ visible: true }).first().fill(key);
  await page
    .locator("aside")
    .getByRole("button", { name: /^Listings/ })
    .click();
  await page.getByRole("button", { name: /Test Request.*\/listings\/validate/ }).click();
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/v1/listings/validate");
  await page.getByRole("dialog").getByRole("button", { name: /^Send/ }).first().click();
  const request = await sent;
  expect(request.method()).toBe("POST");
  // The body editor holds the declaration's example (Scalar streams the body, which the browser does not report).
  await expect(page.getByRole("dialog").getByText('"apartment"').first()).toBeVisible();
  const response = await request.response();
  expect(response?.status()).toBe(200);
  expect(await response?.json()).toMatchObject({ data: { valid: true } });
  // No link out to Scalar's web app.
  await expect(page.getByText("Open API Client")).toHaveCount(0);
});

test("a problem type address explains the code in both languages", async ({ page }) => {
  await page.goto("/problems/listing_busy");
  await expect(page.getByRole("heading", { name: /listing_busy/ })).toBeVisible();
  await expect(page.getByText("Listing busy")).toBeVisible();
  await expect(page.getByText("Anunț ocupat")).toBeVisible();
});
