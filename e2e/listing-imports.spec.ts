import { expect, test, type APIRequestContext } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { format } from "@/lib/base/i18n/format";
import { messages } from "@/lib/base/i18n";
import { checkPage, holderKey, newHolder, sampleListing, signInContext } from "./support";

/**
 * A bulk import as a holder sees it in the portal: sent through the API, then listed on My listings
 * (state, counts) and opened on its results page, where a refused line shows its field errors in the
 * page's language. The results page works without JavaScript.
 */

async function completedImport(request: APIRequestContext, key: string, lines: unknown[]): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" };
  const posted = await request.post("/api/v1/listings/imports", { headers, data: lines.map((line) => JSON.stringify(line)).join("\n") });
  expect(posted.status(), await posted.text()).toBe(202);
  const { id } = (await posted.json()).data as { id: string };
  await expect
    .poll(async () => (await (await request.get(`/api/v1/listings/imports/${id}`, { headers })).json()).data.status, { timeout: 30_000 })
    .toBe("completed");
  return id;
}

test("a holder reads an import's counts and its refused line's errors, in Romanian, with and without JavaScript", async ({
  browser,
  request,
}, testInfo) => {
  const t = pageMessages("ro").listingImports;
  const holder = await newHolder({ locale: "ro" });
  const key = await holderKey(holder.email);
  const ref = `imp-e2e-${Date.now()}`;
  const id = await completedImport(request, key, [
    sampleListing({ external_ref: `${ref}-1` }),
    sampleListing({ external_ref: `${ref}-2`, title: "x" }),
  ]);

  const context = await browser.newContext({ locale: "ro-RO" });
  await signInContext(context, holder);
  const page = await context.newPage();
  await page.goto("/account/listings");
  const section = page.getByRole("region", { name: t.section });
  await expect(section).toContainText(t.statuses.completed);
  await expect(section).toContainText(
    format("ro", t.summary, { created: 1, updated: 0, unchanged: 0, refused: 1, stale: 0, withdrawn: 0, total: 2 }),
  );
  await section.getByRole("link", { name: t.open }).click();
  await expect(page).toHaveURL(new RegExp(`/account/listings/imports/${id}$`));
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(3);
  const refused = table.getByRole("row").nth(2);
  await expect(refused).toContainText(t.outcomes.refused);
  await expect(refused).toContainText("/title");
  await expect(refused).toContainText(messages("ro").problems.validation_failed.detail);
  await checkPage(page, testInfo, "listing-import");

  const withoutScript = await browser.newContext({ locale: "en-US", javaScriptEnabled: false });
  await signInContext(withoutScript, holder);
  const plain = await withoutScript.newPage();
  await plain.goto(`/account/listings/imports/${id}`);
  // The account's language (Romanian) is the page's, with or without a script.
  await expect(plain.getByRole("table").getByRole("row").nth(1)).toContainText(t.outcomes.created);

  // Another account's import, or none: the not-found page, as the API's 404.
  const missing = await page.goto("/account/listings/imports/imp_0000000000000000");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: pageMessages("ro").notFound.title })).toBeVisible();
});
