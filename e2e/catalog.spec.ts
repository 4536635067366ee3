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
