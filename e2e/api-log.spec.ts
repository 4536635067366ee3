import { expect, test, type Page } from "@playwright/test";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { checkPage, cli, newHolder, signedInPage, type Holder } from "./support";

/**
 * The API log as a holder uses it: requests made with a key appear on the log page (rows are
 * written a moment after each answer, so the page is polled), the status filter, the detail with
 * its masked bodies, another holder's entry as the 404 page, and both pages accessible and without
 * horizontal scroll at 360 px in both languages.
 */

// Each test signs in one or two new holders, waits for the log's batched rows and runs axe scans: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

interface MadeRequests {
  key: { id: string; name: string };
  ping: string;
  invalid: string;
  missing: string;
}

/** The password member of the refused body: the log must never show it. */
const sentPassword = "not-for-the-log-7f3a";

/** A key for the holder (the CLI) and three requests with it: a 200, a 422 and a 404; their request ids. */
async function makeRequests(page: Page, holder: Holder): Promise<MadeRequests> {
  const key = await cli<{ key: string; id: string; name: string }>(
    "key:create",
    "--email",
    holder.email,
    "--name",
    "Log test key",
    "--permissions",
    "listings:read,listings:write",
    "--days",
    "30",
  );
  const headers = { authorization: `Bearer ${key.key}` };
  const ping = await page.request.get("/api/v1/ping", { headers });
  expect(ping.status()).toBe(200);
  const invalid = await page.request.post("/api/v1/listings", {
    headers,
    data: { type: "apartment", title: "Short", password: sentPassword },
  });
  expect(invalid.status()).toBe(422);
  const missing = await page.request.get("/api/v1/account/listings/ZZZZ2222", { headers });
  expect(missing.status()).toBe(404);
  const requestId = (response: typeof ping) => response.headers()["x-request-id"];
  return { key: { id: key.id, name: key.name }, ping: requestId(ping), invalid: requestId(invalid), missing: requestId(missing) };
}

const logRow = (page: Page, requestId: string) => page.getByRole("row").filter({ hasText: requestId });

/** Opens the log until the rows of these requests are there (they are written in batches after the answers). */
async function openLogWith(page: Page, path: string, requestIds: string[]): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    for (const id of requestIds) await expect(logRow(page, id)).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test("the log lists the holder's requests, filters them by status class, and shows one with its masked bodies", async ({ browser }) => {
  const t = pageMessages("en").apiLog;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder);
  const made = await makeRequests(page, holder);
  const old = await cli<{ id: string }>(
    "key:create",
    "--email",
    holder.email,
    "--name",
    "Old key",
    "--permissions",
    "listings:read",
    "--days",
    "30",
  );
  await cli("key:revoke", "--id", old.id);

  await openLogWith(page, "/settings/api/log", [made.ping, made.invalid, made.missing]);
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  // The key filter offers every key of the account, a revoked one too.
  const keyOptions = page.getByLabel(t.filters.key).locator("option");
  await expect(keyOptions).toHaveText([
    t.filters.anyKey,
    format("en", t.filters.keyOptionWithStatus, { name: "Old key", id: old.id, status: t.filters.keyStatuses.revoked }),
    format("en", t.filters.keyOption, { name: made.key.name, id: made.key.id }),
  ]);
  const invalidRow = logRow(page, made.invalid);
  await expect(invalidRow.getByRole("cell").nth(1)).toHaveText("POST");
  await expect(invalidRow.getByRole("cell").nth(2)).toHaveText("/api/v1/listings");
  await expect(invalidRow.getByRole("cell").nth(3)).toHaveText("422");
  await expect(invalidRow.getByRole("cell").nth(4)).toHaveText(/^\d+ ms$/);
  await expect(invalidRow.getByRole("cell").nth(5)).toHaveText(made.key.name);
  await expect(logRow(page, made.ping).getByRole("cell").nth(3)).toHaveText("200");
  await expect(logRow(page, made.missing).getByRole("cell").nth(3)).toHaveText("404");
  // Time to the second, in the page's language.
  await expect(invalidRow.getByRole("cell").first()).toHaveText(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} EES?T/);

  // The filter form is a GET form: the filtered page is a shareable address.
  await page.getByLabel(t.filters.status).selectOption("4xx");
  await page.getByLabel(t.filters.key).selectOption(made.key.id);
  await page.getByRole("button", { name: t.filters.apply }).click();
  await expect(page).toHaveURL(/\/settings\/api\/log\?status=4xx&key=[^&]+&path=$/);
  await expect(logRow(page, made.invalid)).toHaveCount(1);
  await expect(logRow(page, made.missing)).toHaveCount(1);
  await expect(logRow(page, made.ping)).toHaveCount(0);
  await expect(page.getByLabel(t.filters.status)).toHaveValue("4xx");

  await page.goto("/settings/api/log?status=2xx&path=/api/v1/ping");
  await expect(logRow(page, made.ping)).toHaveCount(1);
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByLabel(t.filters.path)).toHaveValue("/api/v1/ping");

  await page.goto("/settings/api/log?status=5xx");
  await expect(page.getByText(t.empty.filtered)).toBeVisible();
  await page.getByRole("link", { name: t.filters.clear }).click();
  await expect(page).toHaveURL(/\/settings\/api\/log$/);
  await expect(logRow(page, made.ping)).toHaveCount(1);

  // The detail of the refused request: the password masked, the response's problem.
  await logRow(page, made.invalid).getByRole("link").click();
  await expect(page).toHaveURL(/\/settings\/api\/log\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: t.detail.title })).toBeVisible();
  await expect(page.getByText(made.invalid, { exact: true })).toBeVisible();
  await expect(page.getByText(t.detail.masked)).toBeVisible();
  const requestBody = page.getByRole("region", { name: t.detail.requestBody }).locator("pre");
  await expect(requestBody).toContainText('"password": "[redacted]"');
  await expect(requestBody).toContainText('"title": "Short"');
  await expect(page.locator("main")).not.toContainText(sentPassword);
  const responseBody = page.getByRole("region", { name: t.detail.responseBody }).locator("pre");
  await expect(responseBody).toContainText('"code": "validation_failed"');
  await expect(responseBody).toContainText('"status": 422');
  await expect(responseBody).toContainText('"errors": [');
  await page.context().close();
});

test("another holder's entry, a malformed id and a missing one are the 404 page", async ({ browser }) => {
  const owner = await newHolder();
  const ownerPage = await signedInPage(browser, owner);
  const made = await makeRequests(ownerPage, owner);
  await openLogWith(ownerPage, "/settings/api/log", [made.ping]);
  const entryPath = new URL((await logRow(ownerPage, made.ping).getByRole("link").getAttribute("href"))!, ownerPage.url()).pathname;
  await ownerPage.goto(entryPath);
  await expect(ownerPage.getByText(made.ping, { exact: true })).toBeVisible();
  await ownerPage.context().close();

  const notFound = pageMessages("en").notFound;
  const other = await signedInPage(browser, await newHolder());
  for (const path of [entryPath, "/settings/api/log/not-an-id", "/settings/api/log/99999999999"]) {
    // The entry page has no loading state, so nothing is sent before it knows: the answer is a real 404.
    expect((await other.goto(path))?.status()).toBe(404);
    await expect(other.getByRole("heading", { level: 1, name: notFound.title })).toBeVisible();
    await expect(other.getByText(made.ping)).toHaveCount(0);
  }
  await other.context().close();
});

test("an address the log cannot use shows a notice and the first page instead of failing", async ({ browser }) => {
  const t = pageMessages("en").apiLog;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder);
  const made = await makeRequests(page, holder);
  await openLogWith(page, "/settings/api/log", [made.ping]);

  // A cursor of the right alphabet that names no position, another of the wrong one.
  for (const cursor of ["bm90LWEtY3Vyc29y", "not+a+cursor"]) {
    await page.goto(`/settings/api/log?cursor=${cursor}`);
    await expect(page.getByText(t.filters.unknownCursor)).toBeVisible();
    await expect(logRow(page, made.ping)).toHaveCount(1);
  }

  await page.goto("/settings/api/log?status=7xx&key=someone-else&path=/api/v1/ping");
  await expect(page.getByText(format("en", t.filters.ignored, { fields: `${t.filters.status}, ${t.filters.key}` }))).toBeVisible();
  await expect(logRow(page, made.ping)).toHaveCount(1);
  await expect(logRow(page, made.invalid)).toHaveCount(0);
  await page.context().close();
});

test("the log pages with Older requests and comes back with Newest requests, the filters kept", async ({ browser }) => {
  const t = pageMessages("en").apiLog;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder);
  const key = await cli<{ key: string }>(
    "key:create",
    "--email",
    holder.email,
    "--name",
    "Paging key",
    "--permissions",
    "listings:read",
    "--days",
    "30",
  );
  const headers = { authorization: `Bearer ${key.key}` };
  const ping = async (n: number) => {
    const response = await page.request.get(`/api/v1/ping?n=${n}`, { headers });
    expect(response.status()).toBe(200);
    return response.headers()["x-request-id"];
  };
  // A page holds 50 requests: 53 pings make two pages. All but the last at once, then the last
  // alone, so that it is the newest on the log.
  await Promise.all(Array.from({ length: 52 }, (_, n) => ping(n)));
  const lastRequestId = await ping(52);

  const older = page.getByRole("navigation", { name: t.paging.label }).getByRole("link", { name: t.paging.older });
  await expect(async () => {
    await page.goto("/settings/api/log?status=2xx");
    // The log is written in batches after the answers: the first page is read once the last ping is on it.
    await expect(page.locator("tbody tr td.log-id").first()).toHaveText(lastRequestId, { timeout: 1_000 });
    await expect(page.locator("tbody tr")).toHaveCount(50, { timeout: 1_000 });
    await expect(older).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(older).toHaveAttribute("href", /^\/settings\/api\/log\?status=2xx&cursor=[A-Za-z0-9_-]+$/);
  const firstPage = await page.locator("tbody tr td.log-id").allTextContents();

  await older.click();
  await expect(page.locator("tbody tr")).toHaveCount(3);
  const secondPage = await page.locator("tbody tr td.log-id").allTextContents();
  expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
  await expect(page.getByRole("link", { name: t.paging.older })).toHaveCount(0);
  await expect(page.getByLabel(t.filters.status)).toHaveValue("2xx");

  await page.getByRole("link", { name: t.paging.newest }).click();
  await expect(page).toHaveURL(/\/settings\/api\/log\?status=2xx$/);
  await expect(page.locator("tbody tr")).toHaveCount(50);
  await page.context().close();
});

test("a holder without requests is told how to make a first one", async ({ browser }) => {
  const t = pageMessages("en").apiLog;
  const page = await signedInPage(browser, await newHolder(), "en", "/settings/api/log");
  await expect(page.getByRole("heading", { level: 2, name: t.empty.title })).toBeVisible();
  await expect(page.getByText("GET /api/v1/ping")).toBeVisible();
  await expect(page.getByRole("link", { name: t.empty.reference })).toHaveAttribute("href", "/docs/api");
  await page.context().close();
});

for (const locale of ["ro", "en"] as const) {
  test(`the log and an entry (${locale}): accessible, no horizontal scroll at 360 px`, async ({ browser }, testInfo) => {
    const t = pageMessages(locale).apiLog;
    const holder = await newHolder({ locale });
    const page = await signedInPage(browser, holder, locale);
    const made = await makeRequests(page, holder);
    // The desktop size of these checks (checkPage puts it back after its 360 px check).
    await page.setViewportSize({ width: 1280, height: 900 });

    await openLogWith(page, "/settings/api/log", [made.ping, made.invalid, made.missing]);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
    await checkPage(page, testInfo, `api-log-${locale}`);

    await logRow(page, made.invalid).getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1, name: t.detail.title })).toBeVisible();
    await expect(page.getByRole("region", { name: t.detail.requestBody }).locator("pre")).toContainText("[redacted]");
    await checkPage(page, testInfo, `api-log-entry-${locale}`);

    const empty = await signedInPage(browser, await newHolder({ locale }), locale);
    await empty.setViewportSize({ width: 1280, height: 900 });
    await empty.goto("/settings/api/log");
    await expect(empty.getByRole("heading", { level: 2, name: t.empty.title })).toBeVisible();
    await checkPage(empty, testInfo, `api-log-empty-${locale}`);
    await empty.context().close();
    await page.context().close();
  });
}
