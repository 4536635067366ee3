import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { rejectionCodes } from "../lib/domain/vocabulary/rejection-codes";
import { format, messages } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, expectNoSeriousAxeViolations, fromOwnAddress, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The moderation desk in a real browser, in both languages: a moderator made with the operator's
 * CLI works through listings a holder created with the API (a new one approved, one rejected with a
 * reason and codes, a published one's edit seen as a diff and then hidden), each decision producing
 * its event; a report sent from the public page is closed on the desk, which lets the owner delete
 * the listing. An account that is not a moderator finds no desk at all. The whole journey
 * runs through the holder's form, the desk, the public search and My listings.
 */

const languages = ["ro", "en"] as const;

const createListing = (request: APIRequestContext, key: string, title: string): Promise<string> => createListingAt(request, key, { title });

async function createListingAt(request: APIRequestContext, key: string, changes: Record<string, unknown>): Promise<string> {
  const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: sampleListing(changes) });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data.code;
}

/** Follows the queue's pages until the listing's link shows (the shared server's queue holds other tests' listings too). */
async function openFromQueue(page: Page, title: string, more: string): Promise<void> {
  await page.goto("/moderation");
  for (;;) {
    const link = page.getByRole("link", { name: title, exact: true });
    if (await link.count()) return link.click();
    await page.getByRole("link", { name: more }).click();
  }
}

/** Approve, hide (and reject, through its own form) ask first: the button, then Confirm. */
async function confirmDecision(page: Page, button: string, confirm: string): Promise<void> {
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.getByRole("button", { name: confirm, exact: true }).click();
}

for (const locale of languages) {
  test(`a moderator approves, rejects with reason and codes, sees an edit's diff and hides, and closes a report (${locale})`, async ({
    browser,
    request,
  }) => {
    const t = pageMessages(locale).moderation;
    const holder = await newHolder({ locale });
    const key = await holderKey(holder.email);
    const headers = { authorization: `Bearer ${key}` };
    const stamp = `${locale} ${Date.now()}`;
    const titles = {
      approve: `Garsonieră nouă de aprobat ${stamp}`,
      reject: `Garsonieră nouă de respins ${stamp}`,
      edit: `Garsonieră publicată editată ${stamp}`,
    };
    const toApprove = await createListing(request, key, titles.approve);
    const toReject = await createListing(request, key, titles.reject);
    const edited = await createListing(request, key, `Garsonieră publicată inițial ${stamp}`);
    await cli("moderation:approve", edited);
    const edit = await request.patch(`/api/v1/listings/${edited}`, { headers, data: { title: titles.edit, price: 700 } });
    expect(edit.status(), await edit.text()).toBe(202);

    const moderator = await newHolder({ locale, moderator: true });
    const page = await signedInPage(browser, moderator, locale);
    await page.getByRole("link", { name: t.queueLink }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.queue.title })).toBeVisible();

    // A new listing, approved: the desk moves on to the next item and says the decision was recorded.
    await openFromQueue(page, titles.approve, t.queue.more);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(titles.approve);
    await expectNoSeriousAxeViolations(page);
    await confirmDecision(page, t.review.approve, t.review.confirm);
    await expect(page.getByRole("status").filter({ hasText: t.review.done })).toBeVisible();
    expect(page.url()).toContain(`decided=${toApprove}`);

    // Rejected with a reason and two codes of the vocabulary, labelled in the page's language.
    await openFromQueue(page, titles.reject, t.queue.more);
    await page.getByLabel(t.review.reason).fill("Prețul și fotografiile nu corespund apartamentului.");
    await page.getByLabel(rejectionCodes.label("misleading_price", locale)).check();
    await page.getByLabel(rejectionCodes.label("poor_photos", locale)).check();
    await confirmDecision(page, t.review.reject, t.review.confirm);
    await expect(page.getByRole("status").filter({ hasText: t.review.done })).toBeVisible();

    // The edit of a published listing: the diff against the published version, labelled, then hidden.
    await openFromQueue(page, titles.edit, t.queue.more);
    const diff = page.getByRole("region", { name: t.review.editHeading });
    await expect(diff.getByRole("columnheader", { name: t.review.before })).toBeVisible();
    const priceRow = diff.getByRole("row", { name: new RegExp(`^${locale === "ro" ? "Preț" : "Price"} `) });
    await expect(priceRow.getByRole("cell").nth(0)).toHaveText("650");
    await expect(priceRow.getByRole("cell").nth(1)).toHaveText("700");
    const titleRow = diff.getByRole("row", { name: new RegExp(`^${locale === "ro" ? "Titlu" : "Title"} `) });
    await expect(titleRow.getByRole("cell").nth(1)).toHaveText(titles.edit);
    await expectNoSeriousAxeViolations(page);
    await confirmDecision(page, t.review.hide, t.review.confirm);
    await expect(page.getByRole("status").filter({ hasText: t.review.done })).toBeVisible();

    const listing = async (code: string) => (await (await request.get(`/api/v1/account/listings/${code}`, { headers })).json()).data;
    expect(await listing(toApprove)).toMatchObject({ status: "active" });
    expect(await listing(toReject)).toMatchObject({
      status: "rejected",
      moderation: {
        rejection_reason: "Prețul și fotografiile nu corespund apartamentului.",
        rejection_codes: ["misleading_price", "poor_photos"],
      },
    });
    expect(await listing(edited)).toMatchObject({ status: "hidden", moderation: { edit_pending: false } });
    const events = (await (await request.get("/api/v1/events", { headers })).json()).data as { type: string; data: { code?: string } }[];
    const typesOf = (code: string) => events.filter((event) => event.data.code === code).map((event) => event.type);
    expect(typesOf(toApprove)).toEqual(["listing.published"]);
    expect(typesOf(toReject)).toEqual(["listing.rejected"]);
    expect(typesOf(edited)).toEqual(["listing.published", "listing.withdrawn"]);

    // A visitor reports the approved listing on its public page; it shows on the desk and is closed there.
    const visitor = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
    await fromOwnAddress(visitor);
    const publicPage = await visitor.newPage();
    const report = pageMessages(locale).listing.report;
    const reason = `Apartamentul a fost deja închiriat ${stamp}.`;
    await publicPage.goto(`/listings/${toApprove}`);
    await publicPage.getByText(report.title).click();
    await publicPage.getByLabel(report.reason).fill(reason);
    await publicPage.getByLabel(report.email).fill("vecin@example.com");
    await publicPage.getByRole("button", { name: report.submit }).click();
    await expect(publicPage.getByRole("status")).toHaveText(report.sent);
    await visitor.close();
    expect((await request.delete(`/api/v1/listings/${toApprove}`, { headers })).status()).toBe(409);

    await page.goto(`/moderation/listings/${toApprove}`);
    await expect(page.getByRole("link", { name: format(locale, t.review.reports, { count: 1 }) })).toBeVisible();
    await page.getByRole("link", { name: t.reportsLink, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.reports.title })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: reason });
    await expect(row.getByRole("link", { name: titles.approve })).toHaveAttribute("href", `/moderation/listings/${toApprove}`);
    await expect(row.getByRole("link", { name: new RegExp(toApprove) })).toHaveAttribute("href", `/listings/${toApprove}`);
    await expect(row).toContainText("vecin@example.com");
    await expectNoSeriousAxeViolations(page);
    await row.getByRole("button", { name: t.reports.close }).click();
    await row.getByRole("button", { name: t.review.confirm }).click();
    await expect(page.getByRole("row").filter({ hasText: reason })).toHaveCount(0);
    expect((await request.delete(`/api/v1/listings/${toApprove}`, { headers })).status()).toBe(204);
    await page.context().close();
  });

  test(`an account that is not a moderator gets the not-found page on the desk and no Moderation section (${locale})`, async ({
    browser,
  }) => {
    const t = pageMessages(locale);
    const page = await signedInPage(browser, await newHolder({ locale }), locale);
    await expect(page.getByRole("navigation", { name: t.shell.portalNavigation })).toBeVisible();
    await expect(page.getByText(t.moderation.section, { exact: true })).toHaveCount(0);
    for (const path of ["/moderation", "/moderation/reports", "/moderation/listings/ABCDEFGH"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: t.notFound.title })).toBeVisible();
    }
    await page.context().close();
  });
}

for (const locale of languages) {
  test(`the review page shows another account's listing of the same place side by side (${locale})`, async ({ browser, request }) => {
    const t = pageMessages(locale).moderation.review;
    const stamp = `${locale} ${Date.now()}`;
    // A place of this test's own: the other tests' listings all stand at sampleListing's coordinates.
    const place = {
      street: `Strada Dublurii ${stamp}`,
      street_number: "7",
      latitude: 46.1 + Math.random() / 10,
      longitude: 23.1 + Math.random() / 10,
    };
    const byOwner = await createListingAt(request, await holderKey((await newHolder({ locale })).email), {
      ...place,
      title: `Garsonieră de la proprietar ${stamp}`,
    });
    // The agency wrote the address its own way; the place is the same.
    const byAgency = await createListingAt(request, await holderKey((await newHolder({ locale })).email), {
      ...place,
      street: place.street.replace("Strada", "str."),
      title: `Garsonieră prin agenție ${stamp}`,
    });

    const page = await signedInPage(browser, await newHolder({ locale, moderator: true }), locale, `/moderation/listings/${byOwner}`);
    await expect(page.getByRole("heading", { level: 2, name: t.duplicates.heading })).toBeVisible();
    const compared = page.getByRole("region", { name: format(locale, t.duplicates.compared, { code: byAgency, lister: "Maria Holder" }) });
    await expect(compared.getByRole("columnheader", { name: t.duplicates.thisListing })).toBeVisible();
    const rowOf = (label: string) => compared.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
    const titleRow = rowOf(t.duplicates.listingTitle);
    await expect(titleRow.getByRole("cell").nth(0)).toHaveText(`Garsonieră de la proprietar ${stamp}`);
    await expect(titleRow.getByRole("cell").nth(1)).toHaveText(`Garsonieră prin agenție ${stamp}`);
    const streetRow = rowOf(locale === "ro" ? "Stradă" : "Street");
    await expect(streetRow.getByRole("cell").nth(1)).toHaveText(place.street.replace("Strada", "str."));
    await expectNoSeriousAxeViolations(page);

    // Its link opens the other listing's review, where this one is the duplicate.
    await page.getByRole("link", { name: format(locale, t.duplicates.open, { code: byAgency }) }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Garsonieră prin agenție ${stamp}`);
    await expect(
      page.getByRole("region", { name: format(locale, t.duplicates.compared, { code: byOwner, lister: "Maria Holder" }) }),
    ).toBeVisible();
    await page.context().close();
  });
}

test("a moderator's own listing is on the queue without decisions: another moderator decides", async ({ browser, request }) => {
  const t = pageMessages("en").moderation;
  const moderator = await newHolder({ locale: "en", moderator: true });
  const title = `Garsonieră a moderatorului ${Date.now()}`;
  const code = await createListing(request, await holderKey(moderator.email), title);
  const page = await signedInPage(browser, moderator, "en", `/moderation/listings/${code}`);
  await expect(page.getByText(t.review.own)).toBeVisible();
  for (const button of [t.review.approve, t.review.reject, t.review.hide]) {
    await expect(page.getByRole("button", { name: button, exact: true })).toHaveCount(0);
  }
  await page.context().close();
});

test("robots: portal and desk pages are noindex, an active listing's page is indexed with its Open Graph card", async ({
  browser,
  request,
}) => {
  const moderator = await newHolder({ locale: "en", moderator: true });
  const key = await holderKey(moderator.email);
  const code = await createListing(request, key, "Garsonieră cu card de previzualizare");
  await cli("moderation:approve", code);
  const page = await signedInPage(browser, moderator, "en");
  const robots = page.locator('meta[name="robots"]');
  for (const path of [
    "/account",
    "/settings/api/keys",
    "/moderation",
    "/moderation/reports",
    `/moderation/listings/${code}`,
    "/no-such-page",
  ]) {
    await page.goto(path);
    await expect(robots, path).toHaveAttribute("content", /noindex/);
  }
  await page.goto(`/listings/${code}`);
  await expect(robots).toHaveCount(0);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Garsonieră cu card de previzualizare");
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", new RegExp(`/listings/${code}$`));
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /^Garsonieră luminoasă/);
  await page.goto("/listings");
  await expect(robots).toHaveCount(0);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", pageMessages("en").catalog.title);
  // A later page of results (any page reached by a cursor, here one past the newest listing) is not indexed.
  await page.goto(`/listings?cursor=${Buffer.from(JSON.stringify({ a: 1e12 })).toString("base64url")}`);
  await expect(robots).toHaveAttribute("content", /noindex/);
  await page.context().close();
});

for (const locale of languages) {
  test(`the journey: a listing made in the form, approved on the desk, found by an ASCII city, reported, deleted once the report is closed (${locale})`, async ({
    browser,
  }) => {
    const texts = pageMessages(locale);
    const t = texts.moderation;
    const form = texts.listingForm;
    const mine = texts.myListings;
    const holder = await newHolder({ locale });
    const owner = await signedInPage(browser, holder, locale);
    const field = (name: string) => owner.locator(`#f-${name}`);
    const sample = sampleListing({ title: `Apartament luminos în Brașov, lângă centru ${locale}`, city: "Brașov" });

    // The form: an error next to its field, fixed, submitted for moderation.
    await owner.goto("/account/listings/new");
    await owner.locator("#kind-type").selectOption("apartment");
    await owner.locator("#kind-transaction").selectOption("rent");
    await owner.getByRole("button", { name: form.showForm }).click();
    for (const name of ["title", "description", "city", "street", "latitude", "longitude", "rooms", "price"] as const) {
      await field(name).fill(String(sample[name]));
    }
    await field("floor").selectOption(String(sample.floor));
    await field("price_currency").selectOption("EUR");
    await field("usable_area_sqm").fill("5");
    await owner.getByRole("button", { name: form.submit }).click();
    await expect(field("usable_area_sqm")).toHaveAttribute("aria-invalid", "true");
    await field("usable_area_sqm").fill("36");
    await owner.getByRole("button", { name: form.submit }).click();
    await expect(owner).toHaveURL(/saved=submitted/);
    const code = /\/account\/listings\/([A-Z0-9]{8})\?/.exec(owner.url())![1];

    // The moderator approves it from the queue.
    const moderator = await signedInPage(browser, await newHolder({ locale, moderator: true }), locale);
    await openFromQueue(moderator, sample.title, t.queue.more);
    await confirmDecision(moderator, t.review.approve, t.review.confirm);
    await expect(moderator.getByRole("status").filter({ hasText: t.review.done })).toBeVisible();

    // A visitor finds it by typing the city without diacritics, and reports it.
    const visitorContext = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
    await fromOwnAddress(visitorContext);
    const visitor = await visitorContext.newPage();
    await visitor.goto("/listings?city=brasov");
    await visitor.getByRole("link", { name: sample.title }).first().click();
    await expect(visitor).toHaveURL(new RegExp(`/listings/${code}$`));
    const report = texts.listing.report;
    const reason = `Anunțul folosește fotografiile altui apartament (${locale}).`;
    await visitor.getByText(report.title).click();
    await visitor.getByLabel(report.reason).fill(reason);
    await visitor.getByRole("button", { name: report.submit }).click();
    await expect(visitor.getByRole("status")).toHaveText(report.sent);
    await visitor.context().close();

    // The report is on the desk; the owner's deletion is refused while it is open.
    await moderator.goto("/moderation/reports");
    const reportRow = moderator.getByRole("row").filter({ hasText: reason });
    await expect(reportRow.getByRole("link", { name: sample.title })).toBeVisible();
    const listingRow = owner.getByRole("article", { name: sample.title });
    const remove = async () => {
      await owner.goto("/account/listings");
      await listingRow.getByRole("button", { name: mine.actions.delete, exact: true }).click();
      await listingRow.getByRole("group").getByRole("button", { name: mine.actions.confirm, exact: true }).click();
    };
    await remove();
    await expect(listingRow.getByRole("alert")).toHaveText(messages(locale).problems.listing_action_refused.reasons.open_reports);

    // Closed on the desk, the listing can be deleted.
    await reportRow.getByRole("button", { name: t.reports.close }).click();
    await reportRow.getByRole("button", { name: t.review.confirm }).click();
    await expect(moderator.getByRole("row").filter({ hasText: reason })).toHaveCount(0);
    await remove();
    await expect(listingRow).toHaveCount(0);
    expect((await owner.request.get(`/listings/${code}`)).status()).toBe(404);
    await moderator.context().close();
    await owner.context().close();
  });
}
