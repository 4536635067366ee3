import { expect, test } from "@playwright/test";
import { checkPage, expectNoHorizontalScroll, expectNoSeriousAxeViolations } from "./support";

const texts = {
  en: {
    docs: "Documentation",
    header: "Docs",
    quickstart: "Quickstart",
    webhooks: "Webhooks: receiving and verifying",
    onThisPage: "On this page",
    search: "Search the guides",
  },
  ro: {
    docs: "Documentație",
    header: "Documentație",
    quickstart: "Pornire rapidă",
    webhooks: "Webhookuri: primire și verificare",
    onThisPage: "Pe această pagină",
    search: "Caută în ghiduri",
  },
} as const;

for (const locale of ["en", "ro"] as const) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale: locale === "en" ? "en-US" : "ro-RO" });
    const t = texts[locale];

    test("the header leads to /docs, which lists the guides and the API reference", async ({ page }, testInfo) => {
      await page.goto("/");
      await page
        .getByRole("navigation", { name: locale === "en" ? "Main navigation" : "Navigare principală" })
        .getByRole("link", { name: t.header, exact: true })
        .click();
      await expect(page).toHaveURL(/\/docs$/);
      await expect(page.getByRole("heading", { level: 1, name: t.docs })).toBeVisible();
      const nav = page.getByRole("navigation", { name: t.docs });
      await expect(nav.getByRole("link", { name: t.quickstart })).toHaveAttribute("href", "/docs/quickstart");
      await expect(nav.getByRole("link", { name: locale === "en" ? "API reference" : "referința API" })).toHaveAttribute(
        "href",
        "/docs/api",
      );
      await expect(page.getByRole("heading", { level: 2, name: t.webhooks })).toBeVisible();
      await checkPage(page, testInfo, `docs-index-${locale}`);
    });

    test("a guide: its title, the current guide marked, contents that lead to the sections, code under its file name", async ({
      page,
    }, testInfo) => {
      await page.goto("/docs/quickstart");
      await expect(page.getByRole("heading", { level: 1, name: t.quickstart })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^${t.quickstart} – `));
      await expect(page.getByRole("navigation", { name: t.docs }).getByRole("link", { name: t.quickstart })).toHaveAttribute(
        "aria-current",
        "page",
      );
      const contents = page.getByRole("navigation", { name: t.onThisPage });
      const third = contents.getByRole("link").nth(2);
      const target = (await third.getAttribute("href"))!;
      await third.click();
      await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toBe(target);
      await expect(page.locator(`[id="${target.slice(1)}"]`)).toBeInViewport();
      await expect(page.locator("figure.code-sample figcaption", { hasText: "create-listing.ts" })).toBeVisible();
      await expect(page.locator("figure.code-sample", { hasText: "create-listing.ts" }).locator("pre")).toContainText(
        'from "@listings-platform/client"',
      );
      await checkPage(page, testInfo, `docs-quickstart-${locale}`);
    });

    test("the webhook and errors guides and the search results pass the axe scan and fit 360 px", async ({ page }) => {
      for (const slug of ["webhooks", "errors"]) {
        await page.goto(`/docs/${slug}`);
        await expect(page.locator("h1")).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await expectNoHorizontalScroll(page, slug);
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await expect(page.locator("#code-listing_busy")).toContainText("409");
      await page.goto(`/docs?q=${locale === "en" ? "retry" : "reîncearcă"}`);
      await expect(page.locator("ol.docs-results li").first()).toBeVisible();
      await expectNoSeriousAxeViolations(page);
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "ro-RO" });

  test("the search finds a guide by a word of its body and leads to the section", async ({ page }) => {
    await page.goto("/docs");
    await page.getByLabel(texts.ro.search).fill("semnătura");
    await page.getByLabel(texts.ro.search).press("Enter");
    await expect(page).toHaveURL(/\/docs\?q=semn%C4%83tura$/);
    const results = page.locator("ol.docs-results");
    await expect(results.getByRole("link", { name: new RegExp(`^${texts.ro.webhooks}`) }).first()).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toContainText("„semnătura”");
    await results.getByRole("link").first().click();
    await expect(page).toHaveURL(/\/docs\/webhooks#/);
  });

  test("a word no guide has says so", async ({ page }) => {
    await page.goto("/docs?q=zanzibar");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Niciun ghid nu conține „zanzibar”.");
  });
});

test("an unknown guide is the portal's 404", async ({ page }) => {
  const response = await page.goto("/docs/no-such-guide");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
});
