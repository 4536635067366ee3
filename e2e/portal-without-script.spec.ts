import { expect, test } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The signed-in pages that list things come whole in the first HTML: without JavaScript a visitor
 * sees each page's content in its place, never a loading state waiting for a script to swap it in,
 * and a not-found still answers 404. With JavaScript, a page pressed in the navigation says it is
 * on its way until it comes.
 */

const t = pageMessages("en");

const pages = [
  { path: "/account/listings", title: t.myListings.title },
  { path: "/settings/api/keys", title: t.apiKeys.title },
  { path: "/settings/api/apps", title: t.apps.title },
  { path: "/settings/api/connections", title: t.apps.connections.title },
  { path: "/settings/api/webhooks", title: t.webhooks.title },
  { path: "/settings/api/log", title: t.apiLog.title },
  { path: "/settings/api/activity", title: t.activity.title },
];

test("without JavaScript every listing page of the portal shows its content in the first HTML, and a not-found is a 404", async ({
  browser,
  request,
}) => {
  const holder = await newHolder({ locale: "en" });
  const key = await holderKey(holder.email);
  const listingTitle = `Apartament fără scripturi ${Date.now()}`;
  const created = await request.post("/api/v1/listings", {
    headers: { authorization: `Bearer ${key}` },
    data: sampleListing({ title: listingTitle }),
  });
  expect(created.status(), await created.text()).toBe(201);

  const signedIn = await signedInPage(browser, holder, "en");
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await signedIn.context().storageState() });
  await signedIn.context().close();
  const page = await context.newPage();
  for (const { path, title } of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: title }), path).toBeVisible();
    await expect(page.getByText(t.shell.loading), path).toHaveCount(0);
  }
  await page.goto("/account/listings");
  await expect(page.getByRole("link", { name: listingTitle, exact: true })).toBeVisible();
  await page.goto("/settings/api/keys");
  await expect(page.getByRole("rowheader", { name: "CRM", exact: true })).toBeVisible();

  expect((await page.goto("/account/listings/ZZZZZZZZ"))?.status()).toBe(404);
  expect((await page.goto("/settings/api/log/not-an-id"))?.status()).toBe(404);
  await context.close();
});

test("with JavaScript a page pressed in the navigation says Loading until it comes", async ({ browser }) => {
  const page = await signedInPage(browser, await newHolder({ locale: "en" }), "en", "/account/listings");
  await expect(page.getByRole("heading", { level: 1, name: t.myListings.title })).toBeVisible();
  // The keys page's data held back until the indicator has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/settings/api/keys**", async (route) => {
    await held;
    await route.continue();
  });
  const nav = page.getByRole("navigation", { name: t.shell.portalNavigation });
  const announced = nav.locator("[aria-live=polite]");
  await nav.getByRole("link", { name: t.shell.keys }).click();
  await expect(announced).toHaveText(t.shell.loading);
  release();
  await expect(page.getByRole("heading", { level: 1, name: t.apiKeys.title })).toBeVisible();
  await expect(announced).toHaveText("");
});
