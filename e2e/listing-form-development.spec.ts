import { expect, test, type Page } from "@playwright/test";
import { format } from "@/lib/base/i18n/format";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { holderKey, newHolder, signedInPage } from "./support";

/**
 * A development made in the listing form, in a real browser against the production build: unit
 * types added and removed in place (focus and announcement), an error next to a row's control,
 * fixed and submitted, the parcel outline drawn back, the saved values through the page and the API;
 * in both languages. Without JavaScript: blank rows to fill, a parcel's bad corner refused next to
 * its textarea.
 */

const control = (page: Page, name: string) => page.locator(`#f-${name.replaceAll(".", "-")}`);
const codeOf = (page: Page) => /\/account\/listings\/([A-Z0-9]{8})\?/.exec(page.url())![1];

async function chooseDevelopment(page: Page, locale: "ro" | "en") {
  const t = pageMessages(locale).listingForm;
  await page.goto("/account/listings/new");
  await page.locator("#kind-type").selectOption("development");
  await page.locator("#kind-transaction").selectOption("sale");
  await page.getByRole("button", { name: t.showForm }).click();
  await expect(page).toHaveURL(/type=development&transaction=sale/);
  await expect(page.getByRole("heading", { level: 2, name: t.formTitle })).toBeVisible();
}

/** A square parcel of about 110 m by 80 m in Bucharest's Sector 3, beside the listing's coordinates. */
const parcel = "26.1201, 44.4201\n26.1215, 44.4201\n26.1215, 44.4208\n26.1201, 44.4208";
const parcelPoints = [
  [26.1201, 44.4201],
  [26.1215, 44.4201],
  [26.1215, 44.4208],
  [26.1201, 44.4208],
];

async function fillMain(page: Page, title: string) {
  const main: Record<string, string> = {
    title,
    description: "Ansamblu de trei blocuri cu apartamente de două și trei camere, parcare subterană și livrare în 2027.",
    city: "București",
    street: "Strada Fizicienilor",
    latitude: "44.4204",
    longitude: "26.1208",
  };
  for (const [name, value] of Object.entries(main)) await control(page, name).fill(value);
  await control(page, "price_currency").selectOption("EUR");
  await control(page, "construction_status").selectOption("under_construction");
  await control(page, "total_floors").fill("8");
}

async function fillRow(page: Page, row: number, values: Record<string, string>) {
  for (const [member, value] of Object.entries(values)) {
    if (member.startsWith("floors_")) continue;
    await control(page, `unit_types.${row}.${member}`).fill(value);
  }
  if (values.floors_from) await control(page, `unit_types.${row}.floors`).selectOption(values.floors_from);
  if (values.floors_to) await control(page, `unit_types.${row}.floors_to`).selectOption(values.floors_to);
}

for (const locale of ["ro", "en"] as const) {
  test(`a holder creates a development with unit types and a parcel, fixes a row's error and submits it (${locale})`, async ({
    browser,
    request,
  }) => {
    const texts = pageMessages(locale);
    const t = texts.listingForm;
    const holder = await newHolder({ locale });
    const page = await signedInPage(browser, holder, locale);
    const key = await holderKey(holder.email);
    await chooseDevelopment(page, locale);

    const unitTypes = page.getByRole("group", { name: locale === "ro" ? "Tipuri de unități" : "Unit types" });
    await expect(unitTypes).toBeVisible();
    await expect(control(page, "unit_types.0.area_sqm_to")).toHaveAttribute("max", "500000");
    await expect(control(page, "unit_types.0.area_sqm_to")).toHaveAttribute("step", "0.01");
    await fillMain(page, `Ansamblu rezidențial Fizicienilor ${locale}`);
    await fillRow(page, 0, {
      label: "2 camere",
      rooms: "2",
      area_sqm_from: "55",
      area_sqm_to: "65.5",
      floors_from: "1",
      floors_to: "8",
      units_count: "80",
      price: "95000",
    });
    await fillRow(page, 1, { label: "3 camere", rooms: "3", area_sqm_from: "78", area_sqm_to: "60", units_count: "40", price: "140000" });

    // A row added in place takes the focus and is announced; removed, the focus goes to its neighbour.
    const rowsBefore = await page.locator(".unit-type").count();
    await page.getByRole("button", { name: t.unitTypes.add }).click();
    await expect(page.getByText(t.unitTypes.noScript)).toHaveCount(0);
    await expect(page.locator(".unit-type")).toHaveCount(rowsBefore + 1);
    await expect(unitTypes.getByText(format(locale, t.unitTypes.added, { n: rowsBefore + 1 }))).toBeVisible();
    const added = page.locator(".unit-type").last();
    await expect(added.getByRole("textbox").first()).toBeFocused();
    await added.getByRole("textbox").first().fill("Penthouse");
    await page.getByRole("button", { name: format(locale, t.unitTypes.remove, { n: rowsBefore + 1 }) }).click();
    await expect(page.locator(".unit-type")).toHaveCount(rowsBefore);
    await expect(unitTypes.getByText(format(locale, t.unitTypes.removed, { n: rowsBefore + 1 }))).toBeVisible();
    await expect(page.locator(".unit-type").last().getByRole("textbox").first()).toBeFocused();

    await control(page, "parcel").fill(parcel);
    await page.getByRole("button", { name: t.submit }).click();

    // The row's error next to its control, linked from the summary; what was typed is kept.
    const summary = page.getByRole("alert").filter({ hasText: t.errorSummary });
    await expect(summary).toBeFocused();
    const areaTo = control(page, "unit_types.1.area_sqm_to");
    await expect(areaTo).toHaveAttribute("aria-invalid", "true");
    await expect(areaTo).toHaveAttribute("aria-describedby", /f-unit_types-1-area_sqm_to-error/);
    await expect(page.locator("#f-unit_types-1-area_sqm_to-error")).toContainText("78");
    const link = summary.getByRole("link", { name: new RegExp(format(locale, t.unitTypes.row, { n: 2 })) });
    await expect(link).toHaveAttribute("href", "#f-unit_types-1-area_sqm_to");
    await expect(areaTo).toHaveValue("60");
    await expect(control(page, "unit_types.0.area_sqm_to")).toHaveValue("65.5");
    await expect(control(page, "unit_types.0.floors_to")).toHaveValue("8");
    await expect(control(page, "parcel")).toHaveValue(parcel);

    await areaTo.fill("90");
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page).toHaveURL(/saved=submitted/);
    await expect(page.getByRole("status").filter({ hasText: t.saved.submitted })).toBeVisible();
    const code = codeOf(page);

    // The owner's page shows what was saved, the parcel drawn.
    await expect(control(page, "unit_types.0.area_sqm_to")).toHaveValue("65.5");
    await expect(control(page, "unit_types.1.label")).toHaveValue("3 camere");
    await expect(control(page, "unit_types.1.area_sqm_to")).toHaveValue("90");
    await expect(control(page, "unit_types.0.floors")).toHaveValue("1");
    await expect(control(page, "unit_types.2.label")).toHaveValue("");
    await expect(control(page, "parcel")).toHaveValue(parcel);
    await expect(page.getByRole("img", { name: t.parcel.preview })).toBeVisible();

    const read = await request.get(`/api/v1/account/listings/${code}`, { headers: { authorization: `Bearer ${key}` } });
    expect(read.status()).toBe(200);
    const { data } = (await read.json()) as { data: { status: string; facts: { unit_types: unknown; parcel: unknown } } };
    expect(data.status).toBe("pending");
    expect(data.facts.unit_types).toEqual([
      { label: "2 camere", rooms: 2, area_sqm_from: 55, area_sqm_to: 65.5, floors: { from: "1", to: "8" }, units_count: 80, price: 95000 },
      { label: "3 camere", rooms: 3, area_sqm_from: 78, area_sqm_to: 90, units_count: 40, price: 140000 },
    ]);
    expect(data.facts.parcel).toEqual(parcelPoints);
    await page.context().close();
  });
}

test("without JavaScript a development's blank rows are filled in, and a parcel's bad corner is refused next to its textarea", async ({
  browser,
}) => {
  const t = pageMessages("en").listingForm;
  const holder = await newHolder({ locale: "en" });
  const signed = await signedInPage(browser, holder, "en");
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: await signed.context().storageState() });
  const page = await context.newPage();
  await chooseDevelopment(page, "en");
  await expect(page.getByRole("button", { name: t.unitTypes.add })).toHaveCount(0);
  await expect(page.getByText(t.unitTypes.noScript)).toBeVisible();
  // Two blank rows to begin with; after the refusal, the two filled and two more blank ones.
  await fillRow(page, 0, { label: "Studio", area_sqm_from: "35" });
  await fillRow(page, 1, { label: "Two rooms", area_sqm_from: "52", floors_from: "ground", floors_to: "4" });
  await control(page, "parcel").fill("26.1201, 44.4201\n26.1215, 44.4201\nnorth corner, 44.4208");
  await page.getByRole("button", { name: t.saveDraft }).click();

  await expect(page.getByRole("alert").filter({ hasText: t.errorSummary })).toBeVisible();
  await expect(control(page, "parcel")).toHaveAttribute("aria-invalid", "true");
  await expect(control(page, "parcel")).toHaveAttribute("aria-describedby", "f-parcel-hint f-parcel-error");
  await expect(page.locator("#f-parcel-error")).toBeVisible();
  await expect(control(page, "parcel")).toHaveValue("26.1201, 44.4201\n26.1215, 44.4201\nnorth corner, 44.4208");
  await expect(control(page, "unit_types.1.label")).toHaveValue("Two rooms");

  await control(page, "parcel").fill(parcel);
  await control(page, "unit_types.2.label").fill("Three rooms");
  await page.getByRole("button", { name: t.saveDraft }).click();
  await expect(page).toHaveURL(/saved=draft/);
  await expect(control(page, "unit_types.0.label")).toHaveValue("Studio");
  await expect(control(page, "unit_types.1.floors_to")).toHaveValue("4");
  await expect(control(page, "unit_types.2.label")).toHaveValue("Three rooms");
  await expect(control(page, "unit_types.3.label")).toHaveValue("");
  await expect(control(page, "parcel")).toHaveValue(parcel);
  await context.close();
  await signed.context().close();
});
