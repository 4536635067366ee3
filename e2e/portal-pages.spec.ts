import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import {
  checkPage,
  cli,
  expectPageHeaders,
  holderKey,
  newHolder,
  ownKey,
  sampleListing,
  screenshot,
  seriousAxeViolations,
  signInContext,
  signInWithoutBrowser,
  watchPolicy,
  type Holder,
} from "./support";

/**
 * Every existing page, in both languages: the security headers, no CSP violation, no serious or
 * critical accessibility violation, no horizontal scroll at 360 px, and a screenshot kept with the
 * test's results. The language comes from Accept-Language here (the context's locale); the switcher
 * tests set the cookie through the form. The API reference has the same checks in its own spec
 * (api-reference.spec.ts), beside what it shows in each language.
 */

const languages = [
  { locale: "ro", browserLocale: "ro-RO" },
  { locale: "en", browserLocale: "en-US" },
] as const;

let listingPath = "";
let listingCode = "";
let pendingCode = "";
// The published listing's own city: the catalog's results page shows it whatever other tests,
// running meanwhile, publish in Cluj-Napoca (newest first, they would push it off the first page).
let listingCity = "";

test.beforeAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${await ownKey()}` };
  listingCity = `Cluj-Napoca ${Date.now()}`;
  const created = await request.post("/api/v1/listings", { headers, data: sampleListing({ city: listingCity }) });
  expect(created.status(), await created.text()).toBe(201);
  const { data } = await created.json();
  await cli("moderation:approve", data.code);
  listingPath = new URL(data.url).pathname;
  listingCode = data.code;
  // The desk's review of an edit waiting on a published listing (its diff), and an open report on it.
  const edited = await request.patch(`/api/v1/listings/${data.code}`, { headers, data: { price: 700 } });
  expect(edited.status(), await edited.text()).toBe(202);
  await cli("report:create", data.code, "--reason", "Apartamentul a fost deja închiriat.", "--reporter-email", "vecin@example.com");
  const pending = await request.post("/api/v1/listings", { headers, data: sampleListing({ title: "Garsonieră care așteaptă moderarea" }) });
  expect(pending.status(), await pending.text()).toBe(201);
  pendingCode = (await pending.json()).data.code;
});

type PageCase = {
  name: string;
  path: () => string;
  status: number;
  ready: (page: Page, locale: "ro" | "en") => Promise<void>;
  /** Seen signed in, as a new holder whose account language is the case's. */
  signedIn?: boolean;
  /** What the new holder has before the page is seen. */
  prepare?: (holder: Holder, request: APIRequestContext) => Promise<void>;
  /** That holder is a moderator. */
  moderator?: boolean;
};

/** Listings of the holder in several states, made through the API and the operator's CLI. */
async function listingsInSeveralStates(holder: Holder, request: APIRequestContext): Promise<void> {
  const key = await holderKey(holder.email);
  const create = async (title: string) => {
    const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: sampleListing({ title }) });
    expect(created.status(), await created.text()).toBe(201);
    return ((await created.json()) as { data: { code: string } }).data.code;
  };
  await cli("moderation:approve", await create("Apartament luminos lângă Parcul Central"));
  const paused = await create("Garsonieră liniștită în Mănăștur, lângă piață");
  await cli("moderation:approve", paused);
  const pause = await request.post(`/api/v1/listings/${paused}/pause`, { headers: { authorization: `Bearer ${key}` } });
  expect(pause.status()).toBe(200);
  await cli(
    "moderation:reject",
    await create("Apartament cu două camere în Gheorgheni"),
    "--reason",
    "Prețul nu este cel real.",
    "--codes",
    "misleading_price",
  );
  await create("Apartament nou în Bună Ziua, cu parcare");
}

let ownListingPath = "";

/** An approved listing of the holder's with an edit waiting for moderation: the owner's page with its notices. */
async function listingWithPendingEdit(holder: Holder, request: APIRequestContext): Promise<void> {
  const headers = { authorization: `Bearer ${await holderKey(holder.email)}` };
  const created = await request.post("/api/v1/listings", { headers, data: sampleListing() });
  expect(created.status(), await created.text()).toBe(201);
  const { code } = ((await created.json()) as { data: { code: string } }).data;
  await cli("moderation:approve", code);
  const edited = await request.patch(`/api/v1/listings/${code}`, { headers, data: { price: 700 } });
  expect(edited.status()).toBe(202);
  ownListingPath = `/account/listings/${code}`;
}

const heading = (name: string) => async (page: Page) => {
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
};

const pages: PageCase[] = [
  {
    name: "home",
    path: () => "/",
    status: 200,
    ready: async (page, locale) => {
      const { site, home } = pageMessages(locale);
      await expect(page.getByRole("heading", { level: 1, name: site.name })).toBeVisible();
      // Three ways in: the catalog for visitors, sign-in for account holders, the quickstart for integrators.
      const paths = page.getByRole("list", { name: home.paths });
      for (const [title, link, href] of [
        [home.visitors.title, home.visitors.action, "/listings"],
        [home.holders.title, home.holders.signIn, "/login"],
        [home.integrators.title, home.integrators.action, "/docs/quickstart"],
        [home.integrators.title, home.integrators.reference, "/docs/api"],
      ]) {
        const path = paths.getByRole("region", { name: title });
        await expect(path.getByRole("link", { name: link })).toHaveAttribute("href", href);
      }
      await expect(page.getByRole("complementary", { name: home.sandbox.title })).toContainText("demo@example.com");
    },
  },
  {
    name: "listing",
    path: () => listingPath,
    status: 200,
    ready: async (page, locale) => {
      await expect(page.getByRole("heading", { level: 1, name: "Garsonieră luminoasă lângă parcul central" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: pageMessages(locale).listing.facts })).toBeVisible();
    },
  },
  {
    // A refused filter shows its error at the field; the results of the other filters are not shown.
    name: "catalog",
    path: () => "/listings?city=Cluj-Napoca&price_min=cheap",
    status: 200,
    ready: async (page, locale) => {
      const t = pageMessages(locale).catalog;
      await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
      await expect(page.getByLabel(t.priceMin)).toHaveAttribute("aria-invalid", "true");
    },
  },
  {
    name: "catalog-results",
    path: () => `/listings?city=${encodeURIComponent(listingCity.toLowerCase())}`,
    status: 200,
    ready: async (page, locale) => {
      const t = pageMessages(locale).catalog;
      await expect(page.getByRole("heading", { level: 2, name: t.results })).toBeVisible();
      await expect(page.getByRole("link", { name: "Garsonieră luminoasă lângă parcul central" }).first()).toBeVisible();
    },
  },
  {
    name: "problem",
    path: () => "/problems/listing_action_refused",
    status: 200,
    ready: async (page, locale) => {
      await expect(page.getByText(pageMessages(locale).problem.intro)).toBeVisible();
    },
  },
  {
    // A developer's tool in English only (its own text), inside the shell of the page's language.
    name: "sandbox-mailbox",
    path: () => "/sandbox/mailbox",
    status: 200,
    signedIn: true,
    ready: async (page) => {
      await expect(page.getByRole("heading", { level: 1, name: "Sandbox mailbox" })).toBeVisible();
    },
  },
  {
    // What the holder's receiver address got: a webhook pointing at it, and its Send a test.
    name: "sandbox-webhooks",
    path: () => "/sandbox/webhooks",
    status: 200,
    signedIn: true,
    prepare: async (holder, request) => {
      // The address the page shows to copy (signed for the holder); under the server's APP_URL
      // (playwright.config.ts), its own loopback origin, which it may deliver to there.
      const address = await signInWithoutBrowser(request, holder);
      const shown = await (await request.get("/sandbox/webhooks", { headers: address })).text();
      const url = /<code class="receiver-url">([^<]+)<\/code>/.exec(shown)?.[1];
      expect(url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${process.env.E2E_PORT}/sandbox/webhooks/receive/${holder.id}\\.[\\w-]{43}$`),
      );
      const webhook = await cli<{ id: string }>("webhook:create", "--email", holder.email, "--url", url!, "--events", "listing.published");
      expect(await cli("webhook:test", "--id", webhook.id)).toMatchObject({ ok: true, status: 204 });
    },
    ready: async (page, locale) => {
      const t = pageMessages(locale).sandboxReceiver;
      await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
      const receipt = page.getByRole("list", { name: t.list }).getByRole("article").first();
      await expect(receipt.getByRole("heading", { name: "webhook.test" })).toBeVisible();
      await expect(receipt.getByText(t.verified)).toBeVisible();
      await expect(receipt.getByLabel(t.body)).toContainText('"type": "webhook.test"');
      // The way to the webhooks, in the menu's own words.
      const { shell } = pageMessages(locale);
      await expect(page.getByRole("link", { name: `${shell.apiSettings} → ${shell.webhooks}` })).toHaveAttribute(
        "href",
        "/settings/api/webhooks",
      );
    },
  },
  { name: "login", path: () => "/login", status: 200, ready: (page, locale) => heading(pageMessages(locale).access.login.title)(page) },
  { name: "signup", path: () => "/signup", status: 200, ready: (page, locale) => heading(pageMessages(locale).access.signup.title)(page) },
  {
    name: "confirm-email",
    path: () => "/confirm-email?token=not-a-real-token",
    status: 200,
    ready: (page, locale) => heading(pageMessages(locale).access.confirm.title)(page),
  },
  {
    name: "reset-password",
    path: () => "/reset-password",
    status: 200,
    ready: (page, locale) => heading(pageMessages(locale).access.reset.title)(page),
  },
  {
    name: "account",
    path: () => "/account",
    status: 200,
    signedIn: true,
    ready: (page, locale) => heading(pageMessages(locale).account.title)(page),
  },
  {
    name: "apps",
    path: () => "/settings/api/apps",
    status: 200,
    signedIn: true,
    ready: (page, locale) => heading(pageMessages(locale).apps.title)(page),
  },
  {
    name: "connections",
    path: () => "/settings/api/connections",
    status: 200,
    signedIn: true,
    ready: (page, locale) => heading(pageMessages(locale).apps.connections.title)(page),
  },
  {
    name: "webhooks",
    path: () => "/settings/api/webhooks",
    status: 200,
    signedIn: true,
    ready: (page, locale) => heading(pageMessages(locale).webhooks.title)(page),
  },
  {
    name: "my-listings-empty",
    path: () => "/account/listings",
    status: 200,
    signedIn: true,
    ready: async (page, locale) => {
      const t = pageMessages(locale).myListings;
      await heading(t.title)(page);
      await expect(page.getByRole("heading", { level: 2, name: t.emptyTitle })).toBeVisible();
      await expect(page.getByRole("link", { name: t.emptyCreate })).toHaveAttribute("href", "/account/listings/new");
    },
  },
  {
    name: "my-listings",
    path: () => "/account/listings",
    status: 200,
    signedIn: true,
    prepare: listingsInSeveralStates,
    ready: async (page, locale) => {
      const t = pageMessages(locale).myListings;
      await heading(t.title)(page);
      await expect(page.getByRole("article")).toHaveCount(4);
      await expect(page.getByText(t.statuses.rejected, { exact: true })).toBeVisible();
      // The question of a confirmation is scanned too.
      await page.getByRole("button", { name: t.actions.delete, exact: true }).first().click();
      await expect(page.getByRole("article").getByRole("group")).toBeVisible();
    },
  },
  {
    // A feed in the table (its pulls fail: nothing listens on port 9) and the form adding another.
    name: "feeds",
    path: () => "/account/listings/feeds",
    status: 200,
    signedIn: true,
    prepare: async (holder, request) => {
      const headers = { authorization: `Bearer ${await holderKey(holder.email)}` };
      const created = await request.post("/api/v1/feeds", { headers, data: { url: "http://127.0.0.1:9/listings.ndjson" } });
      expect(created.status(), await created.text()).toBe(201);
    },
    ready: async (page, locale) => {
      const t = pageMessages(locale).feeds;
      await heading(t.title)(page);
      await expect(page.getByRole("row").filter({ hasText: "http://127.0.0.1:9/listings.ndjson" })).toBeVisible();
      await expect(page.getByRole("button", { name: t.create.submit })).toBeVisible();
    },
  },
  {
    name: "moderation-queue",
    path: () => "/moderation",
    status: 200,
    signedIn: true,
    moderator: true,
    ready: (page, locale) => heading(pageMessages(locale).moderation.queue.title)(page),
  },
  {
    // The queue with nothing to show: the shared server's queue is never empty (the seed's pending
    // listings, other tests'), so this is the page past its newest item, which renders the empty state.
    name: "moderation-queue-empty",
    path: () => `/moderation?cursor=${Buffer.from(JSON.stringify({ a: 1e12 })).toString("base64url")}`,
    status: 200,
    signedIn: true,
    moderator: true,
    ready: async (page, locale) => {
      await expect(page.getByText(pageMessages(locale).moderation.queue.emptyMore)).toBeVisible();
    },
  },
  {
    name: "moderation-review-new",
    path: () => `/moderation/listings/${pendingCode}`,
    status: 200,
    signedIn: true,
    moderator: true,
    ready: async (page, locale) => {
      await expect(page.getByRole("button", { name: pageMessages(locale).moderation.review.approve, exact: true })).toBeVisible();
    },
  },
  {
    name: "moderation-review-edit",
    path: () => `/moderation/listings/${listingCode}`,
    status: 200,
    signedIn: true,
    moderator: true,
    ready: async (page, locale) => {
      await expect(page.getByRole("region", { name: pageMessages(locale).moderation.review.editHeading })).toBeVisible();
    },
  },
  {
    name: "moderation-reports",
    path: () => "/moderation/reports",
    status: 200,
    signedIn: true,
    moderator: true,
    ready: async (page, locale) => {
      await expect(page.getByRole("heading", { level: 1, name: pageMessages(locale).moderation.reports.title })).toBeVisible();
      await expect(page.getByRole("button", { name: pageMessages(locale).moderation.reports.close }).first()).toBeVisible();
    },
  },
  {
    name: "listing-form-new",
    path: () => "/account/listings/new?type=apartment&transaction=rent",
    status: 200,
    signedIn: true,
    ready: async (page, locale) => {
      const t = pageMessages(locale).listingForm;
      await heading(t.newTitle)(page);
      // In sections, linked from the top; the country as the API reads it; what submitting still needs, kept up to date.
      const parts = page.getByRole("navigation", { name: t.sectionsNav });
      await expect(parts.getByRole("link")).toHaveCount(6);
      await expect(page.getByRole("group", { name: t.sections.location })).toBeVisible();
      await expect(page.locator("#f-country")).toHaveValue("RO");
      const missing = page.locator(".missing-fields");
      const titleLabel = (await page.locator("label[for=f-title]").textContent())!.replace(t.required, "").trim();
      await expect(missing.getByRole("link", { name: titleLabel })).toBeVisible();
      await page.locator("#f-title").fill("Garsonieră luminoasă lângă parc");
      await expect(missing.getByRole("link", { name: titleLabel })).toHaveCount(0);
      await page.locator("#f-title").fill("");
      // The refused form is scanned: the summary and the errors next to their fields.
      await page.getByRole("button", { name: t.submit }).click();
      await expect(page.getByRole("alert").filter({ hasText: t.errorSummary })).toBeVisible();
      await expect(page.locator("#f-title")).toHaveAttribute("aria-invalid", "true");
    },
  },
  {
    name: "listing-form-development",
    path: () => "/account/listings/new?type=development&transaction=sale",
    status: 200,
    signedIn: true,
    ready: async (page, locale) => {
      const t = pageMessages(locale).listingForm;
      await heading(t.newTitle)(page);
      // The unit types and the parcel refused: a row's error, the group's, and a crossed outline drawn with its error.
      await page.locator("#f-unit_types-0-label").fill("2 camere");
      await page.locator("#f-unit_types-0-area_sqm_from").fill("78");
      await page.locator("#f-unit_types-0-area_sqm_to").fill("60");
      await page.locator("#f-parcel").fill("26.1, 44.4\n26.2, 44.5\n26.2, 44.4\n26.1, 44.5");
      await page.getByRole("button", { name: t.submit }).click();
      await expect(page.getByRole("alert").filter({ hasText: t.errorSummary })).toBeVisible();
      await expect(page.locator("#f-unit_types-0-area_sqm_to")).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator("#f-unit_types-error")).toBeVisible();
      await expect(page.locator("#f-parcel")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("img", { name: t.parcel.preview })).toBeVisible();
    },
  },
  {
    name: "listing-owner",
    path: () => ownListingPath,
    status: 200,
    signedIn: true,
    prepare: listingWithPendingEdit,
    ready: async (page, locale) => {
      const t = pageMessages(locale).listingForm;
      await expect(page.getByRole("heading", { level: 1, name: sampleListing().title })).toBeVisible();
      await expect(page.getByText(t.editPending)).toBeVisible();
      await expect(page.locator("#f-price")).toHaveValue("700");
    },
  },
  {
    name: "consent-error",
    path: () => "/oauth/authorize?client_id=svcc_unknown&redirect_uri=https%3A%2F%2Fcrm.example%2Fcb",
    status: 200,
    signedIn: true,
    ready: (page, locale) => heading(pageMessages(locale).consent.errorTitle)(page),
  },
  {
    name: "not-found",
    path: () => "/no-such-page",
    status: 404,
    ready: async (page, locale) => {
      await expect(page.getByRole("heading", { level: 1, name: pageMessages(locale).notFound.title })).toBeVisible();
    },
  },
];

async function newPage(browser: Browser, browserLocale: string, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({ locale: browserLocale, ...options });
  return { context, page: await context.newPage() };
}

for (const { locale, browserLocale } of languages) {
  for (const pageCase of pages) {
    test(`${pageCase.name} (${locale}): security headers, no CSP violation, accessible, no horizontal scroll at 360 px`, async ({
      browser,
      request,
    }, testInfo) => {
      const { context, page } = await newPage(browser, browserLocale);
      if (pageCase.signedIn) {
        const holder = await newHolder({ locale, moderator: pageCase.moderator });
        await pageCase.prepare?.(holder, request);
        await signInContext(context, holder);
      }
      const violations = await watchPolicy(page);
      const response = await page.goto(pageCase.path());
      expect(response?.status()).toBe(pageCase.status);
      expectPageHeaders(response!);

      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await pageCase.ready(page, locale);
      await checkPage(page, testInfo, `${pageCase.name}-${locale}`);

      expect(await violations()).toEqual([]);
      await context.close();
    });
  }
}

test("the violation watcher reports what the policy blocks (so an empty report means something)", async ({ page }) => {
  const violations = await watchPolicy(page);
  await page.goto("/");
  await page.evaluate(() => {
    const image = document.createElement("img");
    image.src = "https://example.invalid/pixel.png";
    document.body.append(image);
  });
  await expect.poll(violations).toEqual(expect.arrayContaining([expect.stringContaining("img-src")]));
});

test("the accessibility check reports a serious violation (so a page without one means something)", async ({ page }) => {
  await page.goto("/");
  expect(await seriousAxeViolations(page)).toEqual([]);
  await page.evaluate(() => {
    const unnamed = document.createElement("img");
    unnamed.src = "/favicon.ico";
    document.querySelector("main")!.append(unnamed);
  });
  expect(await seriousAxeViolations(page)).toEqual([expect.stringMatching(/^image-alt: /)]);
});

test("the site's icon answers at /favicon.ico and is linked from every page", async ({ request, page }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
  await page.goto("/");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /favicon\.ico|icon/);
});

test("signed in, the language switcher says that it is the account's language", async ({ browser }) => {
  const holder = await newHolder({ locale: "ro" });
  const { context, page } = await newPage(browser, "ro-RO");
  await signInContext(context, holder);
  await page.goto("/account");
  const switcher = page.getByRole("form", { name: pageMessages("ro").site.accountLanguage });
  await expect(switcher).toHaveAccessibleDescription(pageMessages("ro").site.accountLanguageHint);
  await switcher.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("form", { name: pageMessages("en").site.accountLanguage })).toBeVisible();
  await context.close();
});

test("each page gets its own nonce, and API answers carry none of the page headers", async ({ request }) => {
  const nonce = async () => /'nonce-([^']+)'/.exec((await request.get("/")).headers()["content-security-policy"])?.[1];
  const [first, second] = [await nonce(), await nonce()];
  expect(first).toBeTruthy();
  expect(first).not.toBe(second);
  const api = await request.get("/api/v1/ping");
  expect(api.status()).toBe(401);
  expect(api.headers()["content-security-policy"]).toBeUndefined();
});

test("the language switcher changes the text and <html lang> of the same page, and the choice outlives Accept-Language", async ({
  browser,
}, testInfo) => {
  const { context, page } = await newPage(browser, "ro-RO");
  const violations = await watchPolicy(page);
  await page.goto("/docs/api?tab=1");
  await expect(page.locator("html")).toHaveAttribute("lang", "ro");
  await expect(page.getByRole("heading", { level: 1, name: pageMessages("ro").apiReference.title })).toBeVisible();

  await page.getByRole("button", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: pageMessages("en").apiReference.title })).toBeVisible();
  await expect(page.getByRole("link", { name: pageMessages("en").site.home })).toBeVisible();
  await expect(page.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/docs/api?tab=1");
  await screenshot(page, testInfo, "switched-to-en");

  // The cookie wins over the browser's Romanian Accept-Language on the next page too.
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await page.getByRole("button", { name: "Română" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ro");
  await expect(page.getByRole("link", { name: pageMessages("ro").site.home })).toBeVisible();
  expect(await violations()).toEqual([]);
  await context.close();
});

test("the language switcher works without JavaScript", async ({ browser }) => {
  const { context, page } = await newPage(browser, "en-US", { javaScriptEnabled: false });
  await page.goto("/problems/not_found");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("button", { name: "Română" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ro");
  await expect(page.getByText(pageMessages("ro").problem.intro)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/problems/not_found");
  await context.close();
});

test("the skip link is the first stop of the keyboard and moves to the content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: pageMessages("en").site.skipToContent });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});
