import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { format } from "@/lib/base/i18n/format";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { holderKey, newHolder, sampleListing, signedInPage } from "./support";

/**
 * Photos on the owner's listing page, in a real browser against the production build: files
 * uploaded through the pre-signed URL, a photo by address from a local server (the e2e server
 * allows loopback addresses), reordered with the keyboard and with the mouse (the order saved and
 * found again after a reload), a level tag, saved, then processed or failed with the reason in the
 * page's language as the page refreshes itself.
 */

const jpeg = (background: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** A new holder's own listing (made with the API), open on its owner's page in a browser signed in as that holder. */
async function ownListingPage(browser: Browser, request: APIRequestContext, locale: "ro" | "en") {
  const holder = await newHolder({ locale });
  const key = await holderKey(holder.email);
  const created = await request.post("/api/v1/listings", { headers: { authorization: `Bearer ${key}` }, data: sampleListing() });
  expect(created.status(), await created.text()).toBe(201);
  const code = ((await created.json()) as { data: { code: string } }).data.code;
  const page = await signedInPage(browser, holder, locale, `/account/listings/${code}`);
  return { key, code, page };
}

const items = (page: Page) =>
  page
    .getByRole("list")
    .filter({ has: page.locator(".photo-item") })
    .getByRole("listitem");

/** A photo's folded level and rooms, by its summary while none is chosen. */
const tagsOf = (item: Locator, none: string) => item.locator("summary").filter({ hasText: none });

/** A local server answering every path with one JPEG: photos by address the e2e server may download (loopback is allowed there). */
async function photoServer() {
  const served = await jpeg({ r: 40, g: 160, b: 60 });
  const server = http.createServer((_request, res) => {
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(served.length) }).end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test("a holder uploads files, adds a photo by address, reorders by keyboard, tags and saves; each is processed or fails with its reason (en)", async ({
  browser,
  request,
}) => {
  const t = pageMessages("en").listingForm.photos;
  const server = await photoServer();
  const photoUrl = `${server.origin}/garden.jpg`;
  try {
    const { key, code, page } = await ownListingPage(browser, request, "en");
    await expect(page.getByRole("heading", { level: 2, name: t.title })).toBeVisible();
    await expect(page.getByText(t.empty)).toBeVisible();

    await page.getByLabel(t.pick).setInputFiles([
      { name: "living.jpg", mimeType: "image/jpeg", buffer: await jpeg({ r: 190, g: 40, b: 40 }) },
      { name: "broken.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<html>this is no photo</html>") },
    ]);
    await expect(page.getByText(format("en", t.uploaded, { name: "broken.jpg" }))).toBeVisible();
    await page.getByLabel(t.url).fill(photoUrl);
    await page.getByRole("button", { name: t.add, exact: true }).click();
    await expect(items(page)).toHaveCount(3);

    // The photo by address goes first, by keyboard only, each move said in the live region.
    const label = (n: number) => format("en", t.photo, { n, count: 3 });
    await page.getByRole("button", { name: `${t.moveUp}: ${label(3)}` }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText(format("en", t.moved, { from: 3, to: 2, count: 3 }))).toBeVisible();
    await page.getByRole("button", { name: `${t.moveUp}: ${label(2)}` }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText(format("en", t.moved, { from: 2, to: 1, count: 3 }))).toBeVisible();
    await expect(items(page).first()).toContainText(photoUrl);
    await tagsOf(items(page).first(), t.noTags).click();
    await items(page).first().getByLabel(t.floor).selectOption("ground");
    await expect(page.getByText(t.unsaved)).toBeVisible();

    await page.getByRole("button", { name: t.save }).click();
    await expect(page.getByText(t.saved)).toBeVisible();
    // Processed as the page refreshes itself: the address and the file done, the broken file failed with its reason.
    await expect(items(page).nth(0)).toContainText(t.states.done, { timeout: 60_000 });
    await expect(items(page).nth(1)).toContainText(t.states.done, { timeout: 60_000 });
    await expect(items(page).nth(2)).toContainText(
      format("en", t.states.failed, { reason: "Unprocessable file (not a valid JPEG, PNG or WebP)" }),
      { timeout: 60_000 },
    );
    await expect(items(page).nth(0).getByLabel(t.floor)).toHaveValue("ground");
    await expect(items(page).nth(0).getByRole("img")).toBeVisible();

    const read = await request.get(`/api/v1/account/listings/${code}`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await read.json()) as { data: { images: string[] } }).data.images).toHaveLength(2);
  } finally {
    server.close();
  }
});

test("the photo list in Romanian: an uploaded file processed, its state in the page's language (ro)", async ({ browser, request }) => {
  const t = pageMessages("ro").listingForm.photos;
  const { page } = await ownListingPage(browser, request, "ro");
  await page
    .getByLabel(t.pick)
    .setInputFiles([{ name: "fatada.jpg", mimeType: "image/jpeg", buffer: await jpeg({ r: 40, g: 60, b: 190 }) }]);
  await expect(page.getByText(format("ro", t.uploaded, { name: "fatada.jpg" }))).toBeVisible();
  await tagsOf(items(page).first(), t.noTags).click();
  await items(page).first().getByRole("checkbox", { name: "Fațadă" }).check();
  // A room in the owner's own words beside the suggestion: listed, checked, at once.
  await items(page).first().getByLabel(t.ownRoom).fill("  Grădina de iarnă ");
  await items(page).first().getByRole("button", { name: t.addRoom }).click();
  await expect(items(page).first().getByRole("checkbox", { name: "Grădina de iarnă" })).toBeChecked();
  await expect(items(page).first().locator("summary")).toHaveText(format("ro", t.tags, { tags: "Fațadă, Grădina de iarnă" }));
  await page.getByRole("button", { name: t.save }).click();
  await expect(page.getByText(t.saved)).toBeVisible();
  await expect(items(page).first()).toContainText(t.states.done, { timeout: 60_000 });
  await page.reload();
  await expect(items(page).first().locator("summary")).toHaveText(format("ro", t.tags, { tags: "Fațadă, Grădina de iarnă" }));
  await items(page).first().locator("summary").click();
  await expect(items(page).first().getByRole("checkbox", { name: "Fațadă" })).toBeChecked();
  await expect(items(page).first().getByRole("checkbox", { name: "Grădina de iarnă" })).toBeChecked();
});

test("a holder drags a photo onto the first place with the mouse, saves, and finds that order after a reload (en)", async ({
  browser,
  request,
}) => {
  const t = pageMessages("en").listingForm.photos;
  const server = await photoServer();
  try {
    const { page } = await ownListingPage(browser, request, "en");
    const [front, kitchen, garden] = ["front", "kitchen", "garden"].map((name) => `${server.origin}/${name}.jpg`);
    for (const url of [front, kitchen, garden]) {
      await page.getByLabel(t.url).fill(url);
      await page.getByRole("button", { name: t.add, exact: true }).click();
    }
    const sources = () => items(page).locator(".photo-source");
    await expect(sources()).toHaveText([front, kitchen, garden]);

    // A person's drag: pressed on the third photo's thumbnail, moved in steps onto the first one's, released.
    await items(page).nth(2).scrollIntoViewIfNeeded();
    const from = (await items(page).nth(2).locator(".photo-thumb").boundingBox())!;
    const to = (await items(page).nth(0).locator(".photo-thumb").boundingBox())!;
    expect(to.y, "both photos in sight, as for a person dragging").toBeGreaterThanOrEqual(0);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect(page.getByText(format("en", t.moved, { from: 3, to: 1, count: 3 }))).toBeVisible();
    await expect(sources()).toHaveText([garden, front, kitchen]);

    await page.getByRole("button", { name: t.save }).click();
    await expect(page.getByText(t.saved)).toBeVisible();
    await page.reload();
    await expect(sources()).toHaveText([garden, front, kitchen]);
    await expect(items(page).first()).toContainText(t.states.done, { timeout: 60_000 });
    await expect(sources()).toHaveText([garden, front, kitchen]);
  } finally {
    server.close();
  }
});
