import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import type { paths } from "@/sdk/src/generated/openapi";

/**
 * What an integrator does: a client generated from the OpenAPI document (openapi-typescript, then
 * openapi-fetch; `npm run sdk:generate` writes the types, tests/api/openapi-document.test.ts fails
 * when they are stale) creates, reads and patches a listing. The requests reach the real route
 * handlers in this process.
 */
describe("a client generated from the OpenAPI document", () => {
  it("creates, reads and patches a listing", async () => {
    const { key } = await accountWithKey();
    const client = createClient<paths>({
      baseUrl: "http://localhost:3000/api/v1",
      fetch: inProcessFetch,
      headers: { authorization: `Bearer ${key}` },
    });

    const created = await client.POST("/listings", { body: { ...exampleApartment, external_ref: "typed-1" } });
    expect(created.response.status).toBe(201);
    const code: string = created.data!.data.code;
    expect(created.data!.data.status).toBe("pending");

    const read = await client.GET("/account/listings/{code}", { params: { path: { code } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.data.external_ref).toBe("typed-1");
    const etag: string = read.data!.data.etag;
    expect(read.response.headers.get("etag")).toBe(etag);

    const patched = await client.PATCH("/listings/{code}", {
      params: { path: { code }, header: { "if-match": etag } },
      body: { price: 179000, negotiable: true },
    });
    expect(patched.response.status).toBe(200);
    expect(patched.data!.data.price_declared).toEqual({ amount: 179000, currency: "EUR" });
    expect(patched.data!.data.negotiable).toBe(true);

    const stale = await client.PATCH("/listings/{code}", { params: { path: { code }, header: { "if-match": etag } }, body: { price: 1 } });
    expect(stale.response.status).toBe(412);
    expect(stale.error!.code).toBe("listing_changed_meanwhile");

    const byRef = await client.GET("/account/listings/ref/{ref}", { params: { path: { ref: "typed-1" } } });
    expect(byRef.data!.data.code).toBe(code);
  });
});
