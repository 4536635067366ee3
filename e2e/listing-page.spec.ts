import { expect, test } from "@playwright/test";
import { cli, demoKey } from "./support";

test("an approved listing created through the API has a public page at its url", async ({ page, request }) => {
  const key = await demoKey();
  const created = await request.post("/api/v1/listings", {
    headers: { authorization: `Bearer ${key}` },
    data: {
      type: "apartment",
      transaction: "rent",
      title: "Garsonieră modernă lângă Piața Unirii",
      description: "Garsonieră renovată, mobilată complet, la două minute de metrou și de Piața Unirii.",
      city: "Cluj-Napoca",
      street: "Strada Memorandumului",
      latitude: 46.7693,
      longitude: 23.5895,
      rooms: 1,
      floor: "2",
      usable_area_sqm: 34,
      price: 450,
      price_currency: "EUR",
    },
  });
  expect(created.status()).toBe(201);
  const { data } = await created.json();
  const pending = await page.goto(new URL(data.url).pathname);
  expect(pending?.status()).toBe(404);
  await cli("moderation:approve", data.code);
  await page.goto(new URL(data.url).pathname);
  await expect(page.getByRole("heading", { name: "Garsonieră modernă lângă Piața Unirii" })).toBeVisible();
  await expect(page.getByText("Cluj-Napoca")).toBeVisible();
});
