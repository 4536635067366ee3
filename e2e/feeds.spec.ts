import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { format } from "@/lib/base/i18n/format";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { checkPage, holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * The Feeds page as a holder uses it: the empty state, adding a feed served by a local HTTP server
 * (loopback is allowed on the e2e server), Pull now, the pull's outcome and its import report, and
 * the import marked as the feed's on My listings; the empty state once in Romanian.
 */

/** A local server answering every path with the same NDJSON file (and an ETag); counts the requests. */
async function feedServer(lines: unknown[]) {
  const body = lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
  let requests = 0;
  const server = http.createServer((request, res) => {
    requests++;
    if (request.headers["if-none-match"] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
    res.writeHead(200, { "content-type": "application/x-ndjson", etag: '"v1"' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, url: `http://${host}/export/listings.ndjson`, requests: () => requests, close: () => server.close() };
}

/** The words of a pull's outcome without its date: what the last-pull cell ends with. */
const outcomeWords = (text: string) => text.replace("{date}", "");

test("a holder adds a feed, pulls it now, reads the outcome and opens its import report (en)", async ({ browser }, testInfo) => {
  // The first pull is the scheduler's or Pull now's, then its import: both run on the server's own jobs.
  test.setTimeout(180_000);
  const t = pageMessages("en").feeds;
  const imports = pageMessages("en").listingImports;
  const ref = `feed-e2e-${Date.now()}`;
  const server = await feedServer([sampleListing({ external_ref: `${ref}-1` }), sampleListing({ external_ref: `${ref}-2` })]);
  try {
    const holder = await newHolder();
    await holderKey(holder.email);
    const page = await signedInPage(browser, holder, "en", "/account/listings/feeds");
    await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
    await expect(page.getByText(t.empty)).toBeVisible();

    await page.getByLabel(t.create.url).fill(server.url);
    await page.getByRole("button", { name: t.create.submit }).click();
    await expect(page.getByText(format("en", t.create.created, { url: server.url }))).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: server.url });
    await expect(row).toBeVisible();

    // Queued, or refused as already under way when the scheduler took the feed first: either way it is pulled.
    await row.getByRole("button", { name: format("en", t.pullNowLabel, { url: server.url }) }).click();
    await expect(page.getByText(t.pullQueued).or(page.getByRole("alert"))).toBeVisible();
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await page.getByRole("row").filter({ hasText: server.url }).textContent()) ?? "";
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toContain(outcomeWords(t.outcomes.changed));
    expect(server.requests()).toBeGreaterThan(0);
    await checkPage(page, testInfo, "feeds");

    await page.getByRole("row").filter({ hasText: server.url }).getByRole("link", { name: t.report }).click();
    await expect(page).toHaveURL(/\/account\/listings\/imports\/imp_[0-9a-z]{16}$/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("table").getByRole("row").count();
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toBe(3);
    await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText(imports.outcomes.created);

    // My listings names the feed that made the import, and leads back to the Feeds page.
    await page.goto("/account/listings");
    const section = page.getByRole("region", { name: imports.section });
    const fromFeed = section.getByRole("link", { name: format("en", imports.fromFeed, { host: server.host }) });
    await expect(fromFeed).toBeVisible();
    await fromFeed.click();
    await expect(page).toHaveURL(/\/account\/listings\/feeds$/);
  } finally {
    server.close();
  }
});

test("a holder without feeds sees the empty state and the form, in Romanian", async ({ browser }) => {
  const t = pageMessages("ro").feeds;
  const holder = await newHolder({ locale: "ro" });
  await holderKey(holder.email);
  const page = await signedInPage(browser, holder, "ro", "/account/listings/feeds");
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await expect(page.getByText(t.empty)).toBeVisible();
  await expect(page.getByText(format("ro", t.usage, { used: 0, limit: 10 }))).toBeVisible();
  await expect(page.getByRole("button", { name: t.create.submit })).toBeVisible();
});
