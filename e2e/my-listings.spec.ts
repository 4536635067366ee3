import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { messages } from "@/lib/base/i18n";
import { format } from "@/lib/base/i18n/format";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * My listings as a holder lives it, in a real browser against the production build: listings in
 * several states, the state filter, the search without diacritics, paging, pause / resume / sold /
 * delete each asked first, the API's refusal in Romanian and in English, and availability with the
 * controllable clock (`jobs:run --now`): the reminder mail, unconfirmed, Still available, public again.
 * That one is tagged @clock: it moves every listing of the server 30 days on, so it runs after all
 * the other tests (playwright.config.ts).
 */

const dayMs = 86_400_000;

/** A listing of the holder's made through the API, approved by the operator's CLI unless `pending`. */
async function listing(request: APIRequestContext, key: string, title: string, options: { pending?: boolean } = {}) {
  const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: sampleListing({ title }) });
  expect(created.status(), await created.text()).toBe(201);
  const { data } = (await created.json()) as { data: { code: string } };
  if (!options.pending) await cli("moderation:approve", data.code);
  return data.code;
}

const row = (page: Page, title: string) => page.getByRole("article", { name: title });

/** Answers the row's question for `label` (its Yes), after checking the question names the listing. */
async function confirmAction(page: Page, title: string, label: string, locale: "ro" | "en" = "en") {
  const t = pageMessages(locale).myListings.actions;
  await row(page, title).getByRole("button", { name: label, exact: true }).click();
  const question = row(page, title).getByRole("group");
  await expect(question).toContainText(title);
  await question.getByRole("button", { name: t.confirm, exact: true }).click();
}

test("a holder filters, searches, pages, and pauses, resumes, sells and deletes with confirmation", async ({ browser, request }) => {
  const texts = pageMessages("en");
  const t = texts.myListings;
  const holder = await newHolder({ locale: "en" });
  const key = await holderKey(holder.email);
  const flat = "Apartament în Știrbei Vodă, lângă Cișmigiu";
  const house = "Casă cu grădină în Pipera, aproape de școală";
  const land = "Teren intravilan lângă lacul Snagov, cu acces asfaltat";
  const studio = "Garsonieră renovată în Gheorghieni, lângă parc";
  await listing(request, key, flat);
  const houseCode = await listing(request, key, house);
  const paused = await request.post(`/api/v1/listings/${houseCode}/pause`, { headers: { authorization: `Bearer ${key}` } });
  expect(paused.status()).toBe(200);
  const landCode = await listing(request, key, land, { pending: true });
  await cli("moderation:reject", landCode, "--reason", "Fotografiile nu arată terenul.", "--codes", "poor_photos");
  await listing(request, key, studio, { pending: true });

  const page = await signedInPage(browser, holder, "en");
  await page.getByRole("navigation", { name: texts.shell.portalNavigation }).getByRole("link", { name: texts.shell.myListings }).click();
  await expect(page).toHaveURL(/\/account\/listings$/);
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(4);
  await expect(row(page, flat)).toContainText(t.statuses.active);
  await expect(row(page, house)).toContainText(t.statuses.paused);
  await expect(row(page, land)).toContainText(t.statuses.rejected);
  await expect(row(page, land)).toContainText("Fotografiile nu arată terenul.");
  await expect(row(page, land)).toContainText("Poor photos");
  await expect(row(page, studio)).toContainText(t.statuses.pending);
  await expect(row(page, flat).getByRole("link", { name: format("en", t.publicPageLabel, { title: flat }) })).toHaveAttribute(
    "href",
    /^\/listings\/[A-Z0-9]{8}$/,
  );
  await expect(row(page, studio).getByRole("link", { name: studio, exact: true })).toHaveAttribute(
    "href",
    /^\/account\/listings\/[A-Z0-9]{8}$/,
  );

  // The state filter, then a search typed without diacritics and in capitals.
  await page.getByLabel(t.status).selectOption("paused");
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page).toHaveURL(/status=paused/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(row(page, house)).toBeVisible();
  await page.getByLabel(t.status).selectOption("");
  await page.getByLabel(t.search).fill("STIRBEI voda");
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(row(page, flat)).toBeVisible();
  await page.getByLabel(t.search).fill("no such listing");
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page.getByText(t.noMatch)).toBeVisible();

  // Two to a page: the newest changes first, then the older ones, and back.
  await page.goto("/account/listings?per_page=2");
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(row(page, studio)).toBeVisible();
  await page.getByRole("link", { name: t.next }).click();
  await expect(row(page, house)).toBeVisible();
  await expect(row(page, flat)).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(2);
  await page.getByRole("link", { name: t.first }).click();
  await expect(row(page, studio)).toBeVisible();

  // Each action is asked first; Cancel does nothing.
  await page.goto("/account/listings");
  await row(page, flat).getByRole("button", { name: t.actions.pause, exact: true }).click();
  await row(page, flat).getByRole("button", { name: t.actions.cancel }).click();
  await expect(row(page, flat)).toContainText(t.statuses.active);
  await confirmAction(page, flat, t.actions.pause);
  await expect(row(page, flat).getByText(t.statuses.paused, { exact: true })).toBeVisible();
  await confirmAction(page, flat, t.actions.resume);
  await expect(row(page, flat).getByText(t.statuses.active, { exact: true })).toBeVisible();
  await confirmAction(page, flat, t.actions.sold);
  await expect(row(page, flat).getByText(t.statuses.sold, { exact: true })).toBeVisible();
  await confirmAction(page, house, t.actions.delete);
  await expect(row(page, house)).toHaveCount(0);
  await expect(page.getByRole("article")).toHaveCount(3);

  // The same changes the API reads back.
  const read = await request.get("/api/v1/account/listings", { headers: { authorization: `Bearer ${key}` } });
  const statuses = ((await read.json()) as { data: { title: string; status?: string }[] }).data.map((item) => item.title);
  expect(statuses).toEqual([flat, studio, land]);
  await page.context().close();
});

for (const locale of ["ro", "en"] as const) {
  test(`an open report refuses the deletion, said in the page's language (${locale})`, async ({ browser, request }) => {
    const t = pageMessages(locale).myListings;
    const holder = await newHolder({ locale });
    const key = await holderKey(holder.email);
    const title = `Apartament cu trei camere în Floreasca (${locale})`;
    const code = await listing(request, key, title);
    await cli("report:create", code, "--reason", "Apartamentul a fost deja vândut.");

    const page = await signedInPage(browser, holder, locale, "/account/listings");
    await confirmAction(page, title, t.actions.delete, locale);
    await expect(row(page, title).getByRole("alert")).toHaveText(messages(locale).problems.listing_action_refused.reasons.open_reports);
    await expect(row(page, title)).toContainText(t.statuses.active);
    await page.context().close();
  });
}

test("availability with the controllable clock: reminder mail, unconfirmed and flagged, Still available, public again @clock", async ({
  browser,
  request,
}) => {
  const t = pageMessages("en").myListings;
  const holder = await newHolder({ locale: "en" });
  const key = await holderKey(holder.email);
  const title = "Apartament de închiriat lângă Parcul Tineretului";
  const code = await listing(request, key, title);
  const confirmedBy = Date.now();
  const jobsAt = (days: number) =>
    cli(
      "jobs:run",
      "--now",
      new Date(confirmedBy + days * dayMs).toISOString(),
      "--jobs",
      "listings.remind-confirmation,listings.unconfirm",
    );

  // Three days before the 30 days end: the owner is mailed, once, and the listing is still public.
  await jobsAt(27.5);
  await jobsAt(28);
  const page = await signedInPage(browser, holder, "en", "/sandbox/mailbox");
  await expect(page.getByRole("heading", { level: 2, name: /^Are your listings still available\? Confirm by / })).toHaveCount(1);
  await expect(page.getByRole("main")).toContainText(code);
  await expect(page.getByRole("link", { name: /\/account\/listings\?status=active$/ })).toBeVisible();
  expect((await request.get(`/listings/${code}`)).status()).toBe(200);

  // Past the 30 days: unconfirmed, gone from the public, flagged and counted on My listings.
  await jobsAt(30.5);
  expect((await request.get(`/listings/${code}`)).status()).toBe(404);
  await page.goto("/account/listings");
  await expect(page.getByRole("status").filter({ hasText: format("en", t.unconfirmedNotice, { count: 1 }) })).toBeVisible();
  await expect(row(page, title)).toContainText(t.statuses.unconfirmed);
  await expect(row(page, title).locator(".notice.warning")).toBeVisible();

  await row(page, title).getByRole("button", { name: t.stillAvailable }).click();
  await expect(row(page, title).getByText(t.statuses.active, { exact: true })).toBeVisible();
  await expect(page.getByText(format("en", t.unconfirmedNotice, { count: 1 }))).toHaveCount(0);
  expect((await request.get(`/listings/${code}`)).status()).toBe(200);

  const events = await request.get("/api/v1/events", { headers: { authorization: `Bearer ${key}` } });
  const types = ((await events.json()) as { data: { type: string; data: { status: string } }[] }).data.map(
    (e) => `${e.type}:${e.data.status}`,
  );
  expect(types).toEqual(["listing.published:active", "listing.published:active"]);
  await page.context().close();
});
