import { expect, test } from "@playwright/test";

// Proves the browser, the production server and its database start together; the portal's own
// flows get their specs with the portal.
test("the API answers a keyless request in the browser with a problem and a request id", async ({ page }) => {
  const response = await page.goto("/api/v1/ping?locale=en");
  expect(response?.status()).toBe(401);
  expect(response?.headers()["content-type"]).toContain("application/problem+json");
  expect(response?.headers()["x-request-id"]).toBeTruthy();
  const problem = await response?.json();
  expect(problem).toMatchObject({ status: 401, code: "unauthenticated" });
});
