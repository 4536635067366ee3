import { expect, test } from "@playwright/test";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { ownKey } from "./support";

// Path parameters reach the handlers decoded by Next.js: an integrator's id with `/` and `:` works end to end.
test("an external_ref with reserved characters is created, found and refused exactly as written", async ({ request }) => {
  const headers = { authorization: `Bearer ${await ownKey()}` };
  const ref = `crm/${Date.now()}:a.b_c-d`;
  const created = await request.put(`/api/v1/listings/ref/${encodeURIComponent(ref)}`, { headers, data: exampleApartment });
  expect(created.status()).toBe(201);
  expect((await created.json()).data.external_ref).toBe(ref);
  const found = await request.get(`/api/v1/account/listings/ref/${encodeURIComponent(ref)}`, { headers });
  expect(found.status()).toBe(200);
  expect((await found.json()).data.external_ref).toBe(ref);
  const again = await request.put(`/api/v1/listings/ref/${encodeURIComponent(ref)}`, { headers, data: exampleApartment });
  expect(again.status()).toBe(200);
  expect(again.headers()["x-service-unchanged"]).toBe("true");
  const malformed = await request.put(`/api/v1/listings/ref/${encodeURIComponent("50%off")}`, { headers, data: exampleApartment });
  expect(malformed.status()).toBe(422);
  expect((await malformed.json()).errors[0]).toMatchObject({ pointer: "/ref", in: "path", code: "regex" });
});
