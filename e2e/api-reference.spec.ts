import { expect, test } from "@playwright/test";
import { demoKey } from "./support";

test("the API reference lists the endpoints and sends a real request with a pasted key", async ({ page }) => {
  const key = demoKey("listings:read");
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

test("a problem type address explains the code in both languages", async ({ page }) => {
  await page.goto("/problems/listing_busy");
  await expect(page.getByRole("heading", { name: /listing_busy/ })).toBeVisible();
  await expect(page.getByText("Listing busy")).toBeVisible();
  await expect(page.getByText("Anunț ocupat")).toBeVisible();
});
