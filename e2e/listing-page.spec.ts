import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, expectNoSeriousAxeViolations, fromOwnAddress, ownKey, sampleListing } from "./support";

test("an approved listing created through the API has a public page at its url", async ({ page, request }) => {
  const key = await ownKey();
  const created = await request.post("/api/v1/listings", {
    headers: { authorization: `Bearer ${key}` },
    data: sampleListing({
      title: "Garsonieră modernă lângă Piața Unirii",
      description: "Garsonieră renovată, mobilată complet, la două minute de metrou și de Piața Unirii.",
      usable_area_sqm: 34,
      price: 450,
    }),
  });
  expect(created.status()).toBe(201);
  const { data } = await created.json();
  const pending = await page.goto(new URL(data.url).pathname);
  expect(pending?.status()).toBe(404);
  await cli("moderation:approve", data.code);
  await page.goto(new URL(data.url).pathname);
  await expect(page.getByRole("heading", { name: "Garsonieră modernă lângă Piața Unirii" })).toBeVisible();
  await expect(page.getByText("Cluj-Napoca")).toBeVisible();
  // The vocabulary's labels in the page's language, never its codes.
  await expect(page.getByText(/Cluj-Napoca · Apartment · Rent · /)).toBeVisible();
  await expect(page.getByText("450 EUR / Per month")).toBeVisible();
  const facts = page.locator("dl.facts");
  await expect(facts.getByText("Usable area", { exact: true })).toBeVisible();
  await expect(facts.getByText("34 m²", { exact: true })).toBeVisible();
  await expect(facts).not.toContainText("usable_area_sqm");
});

test("a listing's uploaded photos show on its public page in the list's order, each with srcset and a placeholder", async ({
  page,
  request,
}) => {
  const key = await ownKey();
  const headers = { authorization: `Bearer ${key}` };
  const created = await request.post("/api/v1/listings", { headers, data: sampleListing({ title: "Apartament cu două fotografii" }) });
  expect(created.status()).toBe(201);
  const { data } = await created.json();
  const uploadKeys: string[] = [];
  for (const background of [
    { r: 190, g: 40, b: 40 },
    { r: 40, g: 60, b: 190 },
  ]) {
    const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background } })
      .jpeg()
      .toBuffer();
    const grant = await request.post("/api/v1/uploads", { headers, data: { content_length: bytes.byteLength } });
    expect(grant.status()).toBe(201);
    const { url, headers: uploadHeaders, key: uploadKey } = await grant.json();
    const sent = await request.put(url, { headers: uploadHeaders, data: bytes });
    expect(sent.status(), await sent.text()).toBe(204);
    uploadKeys.push(uploadKey);
  }
  const set = await request.put(`/api/v1/listings/${data.code}/photos`, {
    headers,
    // The cover's tags: a level, a known room code and the integrator's own label.
    data: {
      photos: uploadKeys.map((uploadKey, i) =>
        i === 0 ? { key: uploadKey, floor: "ground", rooms: ["kitchen", "Camera copiilor"] } : { key: uploadKey },
      ),
    },
  });
  expect(set.status(), await set.text()).toBe(202);
  await cli("moderation:approve", data.code);
  const images = async () =>
    (await (await request.get(`/api/v1/account/listings/${data.code}`, { headers })).json()).data.images as string[];
  await expect.poll(async () => (await images()).length, { timeout: 60_000 }).toBe(2);
  const published = await images();

  await page.goto(new URL(data.url).pathname);
  const photos = page.getByRole("img", { name: /^Photo \d of 2$/ });
  await expect(photos).toHaveCount(2);
  // In the API's order: each <picture> offers its 1600 px WebP, which is the listing's image.
  const offered = await page
    .locator("figure.photo source[type='image/webp']")
    .evaluateAll((sources) => sources.map((source) => source.getAttribute("srcset")!));
  expect(offered.map((srcset) => srcset.split(", ").at(-1)!.split(" ")[0])).toEqual(published);
  for (const photo of await photos.all()) {
    await expect(photo).toHaveAttribute("width", "1200");
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await expect(page.locator("figure.photo img.photo-placeholder")).toHaveCount(2);
  const derivative = await request.get(published[0]);
  expect(derivative.headers()["content-type"]).toBe("image/webp");
  // Codes by their label in the page's language, the free label as written; the other photo has none.
  await expect(page.locator(".photo-tags-caption")).toHaveText(["Ground floor · Kitchen · Camera copiilor"]);
  await expectNoSeriousAxeViolations(page);
  const ro = await page.context().browser()!.newPage({ locale: "ro-RO" });
  await ro.goto(new URL(data.url).pathname);
  await expect(ro.locator(".photo-tags-caption")).toHaveText(["Parter · Bucătărie · Camera copiilor"]);
  await ro.close();
});

test("a visitor reports a listing without an account: an empty reason is said at its field, then the report blocks the listing's deletion", async ({
  page,
  request,
}) => {
  const t = pageMessages("en").listing.report;
  const key = await ownKey();
  const headers = { authorization: `Bearer ${key}` };
  const created = await request.post("/api/v1/listings", { headers, data: sampleListing({ title: "Garsonieră de raportat" }) });
  const { data } = await created.json();
  await cli("moderation:approve", data.code);

  await fromOwnAddress(page.context());
  await page.goto(new URL(data.url).pathname);
  await page.getByText(t.title).click();
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page.getByLabel(t.reason)).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel(t.reason).fill("The flat was rented last week; the listing is still up.");
  await page.getByLabel(t.email).fill("vecin@example.com");
  await page.getByRole("button", { name: t.submit }).click();
  await expect(page.getByRole("status")).toHaveText(t.sent);
  await expectNoSeriousAxeViolations(page);

  const removed = await request.delete(`/api/v1/listings/${data.code}`, { headers });
  expect(removed.status()).toBe(409);
  expect(await removed.json()).toMatchObject({ code: "listing_action_refused", reason: "open_reports" });
});
