import { describe, expect, it } from "vitest";
import { rateLimiter } from "@/lib/infra/rate-limit";
import { rateRules } from "@/lib/infra/rate-limit/rules";
import { ApiError, retryAfterMs } from "@/sdk/src/index";
import { clientOfNewAccount, listingBody } from "./support";

type Fetch = (request: Request) => Promise<Response>;

const problem = (status: number, code: string, headers: Record<string, string>) =>
  new Response(JSON.stringify({ type: `http://localhost:3000/problems/${code}`, title: code, status, code, detail: code }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });

/** Answers `status` to the first `times` requests, then lets the server answer. */
function refusing(times: number, status: number, headers: Record<string, string>) {
  let left = times;
  return (request: Request, server: Fetch) =>
    left-- > 0 ? Promise.resolve(problem(status, status === 429 ? "too_many_requests" : "service_unavailable", headers)) : server(request);
}

describe("the typed client's retries", () => {
  it("retries a create refused with 429 after Retry-After, with the same Idempotency-Key and body", async () => {
    const retries: { attempt: number; delayMs: number; status: number }[] = [];
    const { client, requests } = await clientOfNewAccount({
      through: refusing(1, 429, { "retry-after": "1" }),
      retries: { onRetry: ({ attempt, delayMs, status }) => retries.push({ attempt, delayMs, status }) },
    });
    const created = await client.listings.create(listingBody("sdk-429"));
    expect(created.lastResponse.status).toBe(201);
    expect(retries).toEqual([{ attempt: 1, delayMs: 1000, status: 429 }]);
    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(second.headers.get("idempotency-key")).toBe(first.headers.get("idempotency-key"));
    expect(await second.text()).toBe(await first.text());
  });

  it("lets the server deduplicate a retried create whose first answer was lost", async () => {
    let lost = false;
    const { client, requests } = await clientOfNewAccount({
      retries: { baseDelayMs: 1 },
      // The first request is served, then its answer is replaced by a 503: the listing exists already.
      through: async (request, server) => {
        const response = await server(request);
        if (lost) return response;
        lost = true;
        return problem(503, "service_unavailable", {});
      },
    });
    const created = await client.listings.create(listingBody("sdk-lost"));
    expect(requests).toHaveLength(2);
    expect(created.lastResponse.headers.get("idempotent-replayed")).toBe("true");
    const all = [];
    for await (const listing of client.listings.list()) all.push(listing.code);
    expect(all).toEqual([created.data.code]);
  });

  it("backs off on a 503 without Retry-After, and gives up after the retries with an ApiError", async () => {
    const delays: number[] = [];
    const { client, requests } = await clientOfNewAccount({
      through: refusing(5, 503, {}),
      retries: { retries: 2, baseDelayMs: 20, onRetry: ({ delayMs }) => delays.push(delayMs) },
    });
    const error = (await client.listings.get("ZZZZZZZZ").catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(10);
    expect(delays[0]).toBeLessThanOrEqual(20);
    expect(delays[1]).toBeGreaterThanOrEqual(20);
    expect(delays[1]).toBeLessThanOrEqual(40);
  });

  it("does not repeat a write the server cannot deduplicate, nor wait longer than allowed", async () => {
    const paused = await clientOfNewAccount({ through: refusing(1, 429, { "retry-after": "0" }) });
    const pause = (await paused.client.listings.pause("ZZZZZZZZ").catch((caught: unknown) => caught)) as ApiError;
    expect(pause).toMatchObject({ status: 429, code: "too_many_requests", retryAfter: 0 });
    expect(paused.requests).toHaveLength(1);

    const patient = await clientOfNewAccount({ through: refusing(1, 429, { "retry-after": "120" }), retries: { maxDelayMs: 5_000 } });
    await expect(patient.client.listings.get("ZZZZZZZZ")).rejects.toMatchObject({ status: 429, retryAfter: 120 });
    expect(patient.requests).toHaveLength(1);

    const off = await clientOfNewAccount({ through: refusing(1, 503, { "retry-after": "0" }), retries: 0 });
    await expect(off.client.listings.get("ZZZZZZZZ")).rejects.toMatchObject({ status: 503 });
    expect(off.requests).toHaveLength(1);
  });

  it("honours the server's own 429 and its Retry-After", async () => {
    const { client, key } = await clientOfNewAccount({ retries: 0 });
    // The key's whole minute used up at once through the server's own limiter: a loop of requests
    // could straddle the sliding window on a slow machine and never be refused.
    const keyId = key.slice(0, key.indexOf("|"));
    await Promise.all(Array.from({ length: rateRules.key.limit }, () => rateLimiter().hit(keyId, rateRules.key)));
    const refused = await client.raw
      .GET("/ping")
      .then(({ response, error }) => (response.status === 429 ? new ApiError(response, error) : undefined));
    expect(refused).toMatchObject({ status: 429, code: "too_many_requests" });
    expect(refused!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused!.retryAfter).toBeLessThanOrEqual(60);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-26T10:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Thu, 26 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Thu, 26 Nov 2026 09:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
