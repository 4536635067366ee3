import { expect, test } from "@playwright/test";
import { ownKey } from "./support";

test("the API reference lists the endpoints and sends a real request with a pasted key", async ({ page }) => {
  const key = await ownKey("listings:read");
  await page.goto("/docs/api");
  await expect(page.getByText("/account/listings/ref/{ref}").first()).toBeVisible();
  await page.getByLabel("API key").fill(key);
  const ping = page.locator("details", { hasText: "Check a key" });
  await ping.locator("summary").click();
  await ping.getByRole("button", { name: "Send GET /ping" }).click();
  const response = ping.getByLabel("Response");
  await expect(response).toContainText("200");
  await expect(response).toContainText('"pong": true');
  await expect(response).toContainText("X-Request-Id: req_");
});

test("the API reference fills the example body of an operation that takes one, which succeeds as sent", async ({ page }) => {
  const key = await ownKey("listings:write");
  await page.goto("/docs/api");
  await page.getByLabel("API key").fill(key);
  const validate = page.locator("details", { hasText: "Validate a listing body" });
  await validate.locator("summary").click();
  await expect(validate.getByLabel(/^Body/)).toHaveValue(/"type": "apartment"/);
  await validate.getByRole("button", { name: "Send POST /listings/validate" }).click();
  const response = validate.getByLabel("Response");
  await expect(response).toContainText("200");
  await expect(response).toContainText('"valid": true');
});

test("a problem type address explains the code in both languages", async ({ page }) => {
  await page.goto("/problems/listing_busy");
  await expect(page.getByRole("heading", { name: /listing_busy/ })).toBeVisible();
  await expect(page.getByText("Listing busy")).toBeVisible();
  await expect(page.getByText("Anunț ocupat")).toBeVisible();
});
