import { expect, test } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, ownKey, sampleListing } from "./support";

/** The public catalog as a visitor uses it: a city typed without diacritics, filters kept in a link to share, paging. */

test("a visitor finds a listing by its city typed without diacritics, and the search is a link that opens the same results", async ({
  browser,
  request,
}) => {
  const t = pageMessages("ro").catalog;
  const unique = `${Date.now()}`.slice(-6);
  const city = `Târgu Mureș ${unique}`;
  const headers = { authorization: `Bearer ${await ownKey()}` };
  const codes: string[] = [];
  for (const [title, price] of [
    ["Apartament cu două camere lângă Cetate", 82_000],
    ["Garsonieră nouă în Tudor", 51_000],
  ] as const) {
    const created = await request.post("/api/v1/listings", {
      headers,
      data: sampleListing({ title, city, transaction: "sale", price, price_currency: "EUR", description: sampleListing().description }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const { data } = await created.json();
    await cli("moderation:approve", data.code);
    codes.push(data.code);
  }
  const page = await (await browser.newContext({ locale: "ro-RO" })).newPage();

  await page.goto("/");
  await page.getByRole("link", { name: pageMessages("ro").site.listings, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await page.getByLabel(t.city).fill(`TARGU MURES ${unique}`);
  await page.getByLabel(t.transaction).selectOption("sale");
  await page.getByRole("button", { name: t.submit }).click();
  const results = page.getByRole("region", { name: t.results });
  await expect(results.getByRole("article")).toHaveCount(2);
  // Newest change first: the second one approved leads.
  await expect(results.getByRole("article").first()).toContainText("Garsonieră nouă în Tudor");
  await expect(results.getByRole("article").first()).toContainText("51.000 EUR");
  await expect(results.getByRole("article").first()).toContainText(`${city} · Apartament · Vânzare`);
  await expect(results.getByText(t.noPhoto).first()).toBeVisible();

  // The address is the search: opened anew, with a price bound, it shows the cheaper one only.
  const shared = new URL(page.url());
  expect(shared.searchParams.get("city")).toBe(`TARGU MURES ${unique}`);
  shared.searchParams.set("price_max", "60000");
  await page.goto(shared.pathname + shared.search);
  await expect(results.getByRole("article")).toHaveCount(1);
  await expect(page.getByLabel(t.priceMax)).toHaveValue("60000");

  await results.getByRole("link", { name: "Garsonieră nouă în Tudor" }).click();
  await expect(page).toHaveURL(new RegExp(`/listings/${codes[1]}$`));

  // None in a city without listings: said plainly.
  await page.goto(`/listings?city=${encodeURIComponent(`Nicaieri ${unique}`)}`);
  await expect(page.getByText(t.empty)).toBeVisible();
});

test("results page by page with the filters kept; an old cursor shows the first page with a notice", async ({ page, request }) => {
  const t = pageMessages("en").catalog;
  const city = `Pagina ${Date.now()}`;
  const headers = { authorization: `Bearer ${await ownKey()}` };
  for (let n = 0; n < 3; n++) {
    const created = await request.post("/api/v1/listings", {
      headers,
      data: sampleListing({ city, title: `Garsonieră numărul ${n + 1} din oraș` }),
    });
    const { data } = await created.json();
    await cli("moderation:approve", data.code);
  }
  const results = page.getByRole("region", { name: t.results }).getByRole("article");

  await page.goto(`/listings?city=${encodeURIComponent(city)}&per_page=2`);
  await expect(results).toHaveCount(2);
  await expect(results.first()).toContainText("numărul 3");
  await page.getByRole("link", { name: t.more }).click();
  await expect(results).toHaveCount(1);
  await expect(results.first()).toContainText("numărul 1");
  expect(new URL(page.url()).searchParams.get("city")).toBe(city);
  await page.getByRole("link", { name: t.previous }).click();
  await expect(results).toHaveCount(2);

  await page.goto(`/listings?city=${encodeURIComponent(city)}&cursor=not-a-cursor`);
  await expect(page.getByText(t.badCursor)).toBeVisible();
  await expect(results).toHaveCount(3);
});

test("the sandbox's seeded listings show their drawn photos in the catalog and on their page, floor plan included", async ({ page }) => {
  // The photos may still be processing when the suite starts: waited for below, beyond the usual minute.
  test.setTimeout(200_000);
  const { catalog: t, listing } = pageMessages("en");
  // Seeded on the empty database the server started with (lib/domain/seed): the agency's Sibiu flat,
  // active. Its photos are processed by the job runner after start-up, in the background: reloaded until they are.
  const result = page
    .getByRole("region", { name: t.results })
    .getByRole("article")
    .filter({ hasText: "Apartament 2 camere în centrul Sibiului" });
  await expect(async () => {
    await page.goto(`/listings?city=Sibiu&transaction=sale`);
    await expect(result).toHaveCount(1);
    await expect(result.getByText(t.noPhoto)).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 150_000, intervals: [2_000] });
  const cover = result.locator("picture img");
  await expect(cover).toHaveJSProperty("complete", true);
  expect(await cover.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  await result.getByRole("link", { name: "Apartament 2 camere în centrul Sibiului" }).click();
  const photos = page.getByRole("region", { name: listing.photos });
  await expect(photos.getByRole("img", { name: /^Photo \d+ of 4$/ })).toHaveCount(4);
  await expect(photos.getByText("Floor plan")).toBeVisible();
  const first = photos.getByRole("img", { name: "Photo 1 of 4" });
  await expect(first).toHaveJSProperty("complete", true);
  expect(await first.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
});
