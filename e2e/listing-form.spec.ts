import { expect, test, type Page } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The listing form as a holder lives it, in a real browser against the production build, in both
 * languages: a new listing refused with the error next to its field, fixed and submitted (pending);
 * a draft that is never public; an approved listing edited, the edit waiting for moderation.
 */

const field = (page: Page, name: string) => page.locator(`#f-${name}`);
const codeOf = (page: Page) => /\/account\/listings\/([A-Z0-9]{8})\?/.exec(page.url())![1];

async function chooseKind(page: Page, locale: "ro" | "en", type: string, transaction: string) {
  const t = pageMessages(locale).listingForm;
  await page.goto("/account/listings/new");
  await page.locator("#kind-type").selectOption(type);
  await page.locator("#kind-transaction").selectOption(transaction);
  await page.getByRole("button", { name: t.showForm }).click();
  await expect(page).toHaveURL(new RegExp(`type=${type}&transaction=${transaction}`));
  await expect(page.getByRole("heading", { level: 2, name: t.formTitle })).toBeVisible();
}

for (const locale of ["ro", "en"] as const) {
  test(`a holder creates, fixes and submits a listing, keeps a draft private and edits an active one (${locale})`, async ({
    browser,
    request,
  }) => {
    const texts = pageMessages(locale);
    const t = texts.listingForm;
    const holder = await newHolder({ locale });
    const page = await signedInPage(browser, holder, locale);
    const key = await holderKey(holder.email);
    const api = (path: string) => request.get(path, { headers: { authorization: `Bearer ${key}` } });
    const sample = sampleListing({ title: `Garsonieră luminoasă lângă parc, ${locale}` });

    await page.goto("/account/listings");
    await page.getByRole("link", { name: texts.myListings.create }).first().click();
    await expect(page).toHaveURL(/\/account\/listings\/new$/);
    await chooseKind(page, locale, "apartment", "rent");
    // Only what applies to a flat for rent: a deposit, no trade.
    await expect(field(page, "deposit_months")).toBeVisible();
    await expect(field(page, "accepts_trade")).toHaveCount(0);
    await expect(field(page, "usable_area_sqm")).toHaveAttribute("min", "10");

    for (const name of ["title", "description", "city", "street", "latitude", "longitude", "rooms", "price"] as const) {
      await field(page, name).fill(String(sample[name]));
    }
    await field(page, "floor").selectOption(String(sample.floor));
    await field(page, "price_currency").selectOption("EUR");
    await field(page, "usable_area_sqm").fill("5");
    await page.getByRole("button", { name: t.submit }).click();

    // The error next to its field, linked from the summary; what was typed is kept.
    const summary = page.getByRole("alert").filter({ hasText: t.errorSummary });
    await expect(summary).toBeVisible();
    await expect(summary).toBeFocused();
    const area = field(page, "usable_area_sqm");
    await expect(area).toHaveAttribute("aria-invalid", "true");
    await expect(area).toHaveAttribute("aria-describedby", /f-usable_area_sqm-error/);
    await expect(page.locator("#f-usable_area_sqm-error")).toContainText("10");
    await expect(summary.getByRole("link")).toHaveAttribute("href", "#f-usable_area_sqm");
    await expect(field(page, "title")).toHaveValue(sample.title);
    await expect(area).toHaveValue("5");

    await area.fill("36");
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page).toHaveURL(/saved=submitted/);
    const submitted = codeOf(page);
    await expect(page.getByRole("status").filter({ hasText: t.saved.submitted })).toBeVisible();
    await expect(page.getByText(texts.myListings.statuses.pending).first()).toBeVisible();

    // A draft needs only its type and transaction, and is never public.
    const city = `Draftville ${locale} ${Date.now()}`;
    await chooseKind(page, locale, "apartment", "sale");
    await field(page, "city").fill(city);
    await page.getByRole("button", { name: t.saveDraft }).click();
    await expect(page).toHaveURL(/saved=draft/);
    const draft = codeOf(page);
    await expect(page.getByRole("status").filter({ hasText: t.saved.draft })).toBeVisible();
    expect((await request.get(`/listings/${draft}`)).status()).toBe(404);
    expect((await api(`/api/v1/listings/${draft}`)).status()).toBe(404);
    await page.goto(`/listings?city=${encodeURIComponent(city)}`);
    await expect(page.locator(`a[href="/listings/${draft}"]`)).toHaveCount(0);
    // Submitting it judges it for publication: the title is missing.
    await page.goto(`/account/listings/${draft}`);
    await page.getByRole("button", { name: t.submit }).click();
    await expect(field(page, "title")).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, "city")).toHaveValue(city);

    // An active listing's edit waits for moderation; the live version stays.
    await cli("moderation:approve", submitted);
    await page.goto(`/account/listings/${submitted}`);
    await expect(page.getByText(t.publishedNote)).toBeVisible();
    await expect(page.getByRole("link", { name: t.publicPage })).toHaveAttribute("href", `/listings/${submitted}`);
    await field(page, "price").fill("700");
    await page.getByRole("button", { name: t.sendEdit }).click();
    await expect(page).toHaveURL(/saved=moderation/);
    await expect(page.getByRole("status").filter({ hasText: t.saved.moderation })).toBeVisible();
    await expect(page.getByText(t.editPending)).toBeVisible();
    await expect(field(page, "price")).toHaveValue("700");
    const live = await api(`/api/v1/listings/${submitted}`);
    expect(live.status()).toBe(200);
    expect(((await live.json()) as { data: { price: number } }).data.price).toBe(650);
    await page.context().close();
  });
}

test("a stale form is refused with a clear message, and another holder's listing is not found", async ({ browser }) => {
  const t = pageMessages("en").listingForm;
  const holder = await newHolder({ locale: "en" });
  const page = await signedInPage(browser, holder, "en");
  await chooseKind(page, "en", "land", "sale");
  await field(page, "city").fill("Snagov");
  await page.getByRole("button", { name: t.saveDraft }).click();
  await expect(page).toHaveURL(/saved=draft/);
  const code = codeOf(page);

  const other = await page.context().newPage();
  await other.goto(`/account/listings/${code}`);
  await other.locator("#f-city").fill("Snagov sat");
  await other.getByRole("button", { name: t.saveDraft }).click();
  await expect(other).toHaveURL(/saved=draft/);

  await field(page, "city").fill("Ciolpani");
  await page.getByRole("button", { name: t.saveDraft }).click();
  await expect(page.getByRole("alert").filter({ hasText: t.changedMeanwhile })).toBeVisible();
  await expect(field(page, "city")).toHaveValue("Ciolpani");

  const stranger = await signedInPage(browser, await newHolder({ locale: "en" }), "en");
  expect((await stranger.goto(`/account/listings/${code}`))?.status()).toBe(404);
  await stranger.context().close();
  await page.context().close();
});

test("the form works without JavaScript: the kind chosen by a GET form, a refusal shown, a draft saved", async ({ browser }) => {
  const t = pageMessages("en").listingForm;
  const holder = await newHolder({ locale: "en" });
  const signed = await signedInPage(browser, holder, "en");
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await signed.context().storageState() });
  const page = await context.newPage();
  await chooseKind(page, "en", "house", "sale");
  await field(page, "land_area_sqm").fill("10");
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page.getByRole("alert").filter({ hasText: t.errorSummary })).toBeVisible();
  await expect(field(page, "land_area_sqm")).toHaveAttribute("aria-invalid", "true");
  await expect(field(page, "land_area_sqm")).toHaveValue("10");
  await field(page, "land_area_sqm").fill("600");
  await page.getByRole("button", { name: t.saveDraft }).click();
  await expect(page).toHaveURL(/saved=draft/);
  await expect(field(page, "land_area_sqm")).toHaveValue("600");
  await context.close();
  await signed.context().close();
});
