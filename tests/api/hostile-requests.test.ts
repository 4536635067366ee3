import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as accountListings } from "@/app/api/v1/account/listings/route";
import { POST as create } from "@/app/api/v1/listings/route";
import { PUT as upsertByRef } from "@/app/api/v1/listings/ref/[ref]/route";
import { POST as validate } from "@/app/api/v1/listings/validate/route";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { resetConfig } from "@/lib/base/config";
import { maxNestingDepth } from "@/lib/adapters/http/body";
import { clientIp } from "@/lib/base/client-ip";
import { withFrozenClock } from "../support/clock";
import { accountWithKey, call } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { loggedRow } from "@/tests/support/api-log-rows";

/** A valid listing with one more member nested `depth` arrays deep, as text (JSON.stringify would overflow). */
const withNesting = (depth: number): string =>
  `${JSON.stringify(validApartment()).slice(0, -1)},"extra":${"[".repeat(depth)}"deep"${"]".repeat(depth)}}`;

const json = { "content-type": "application/json" };

async function listingCount(accountId: string): Promise<number> {
  const database_ = await database();
  const [row] = await database_.rows<{ n: number }>(sql`select count(*)::int as n from listings where account_id = ${accountId}`);
  return row.n;
}

const logRow = loggedRow;

/** A request built by hand, for bytes `call` (which JSON-encodes) cannot send. */
async function send(handler: typeof create, path: string, key: string, body: BodyInit, init: RequestInit = {}) {
  const request = new Request(`http://localhost:3000/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    body,
  });
  const response = await handler(request, { params: Promise.resolve({}) as never });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
}

describe("hostile request bodies", () => {
  it("refuses a listing nested 10 000 arrays deep with 400 nesting_too_deep and writes nothing", async () => {
    const { key, account } = await accountWithKey();
    for (const handler of [create, validate]) {
      const path = handler === create ? "/listings" : "/listings/validate";
      const res = await call(handler, { path, method: "POST", key, rawBody: withNesting(10_000), headers: json });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.json).toMatchObject({ code: "nesting_too_deep", status: 400 });
      expect(res.json?.detail).toContain(String(maxNestingDepth));
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
      expect((await logRow(res.headers.get("x-request-id")!))?.status).toBe(400);
    }
    const ref = await call(upsertByRef, {
      path: "/listings/ref/DEEP-1",
      method: "PUT",
      key,
      rawBody: withNesting(10_000),
      headers: json,
      params: { ref: "DEEP-1" },
    });
    expect(ref.json?.code).toBe("nesting_too_deep");
    expect(await listingCount(account.id)).toBe(0);
  });

  it("accepts nesting up to the limit: the depth check does not refuse what the validator would judge", async () => {
    const { key } = await accountWithKey();
    const res = await call(validate, {
      path: "/listings/validate",
      method: "POST",
      key,
      rawBody: withNesting(maxNestingDepth - 1),
      headers: json,
    });
    expect(res.status).not.toBe(400);
    const deeper = await call(validate, {
      path: "/listings/validate",
      method: "POST",
      key,
      rawBody: withNesting(maxNestingDepth),
      headers: json,
    });
    expect(deeper.json?.code).toBe("nesting_too_deep");
  });

  it("refuses bytes that are not UTF-8 with 400 invalid_encoding and writes nothing", async () => {
    const { key, account } = await accountWithKey();
    const json = Buffer.from(JSON.stringify(validApartment({ title: "Apartament XX cu două camere" })));
    const bytes = Buffer.from(json.toString("latin1").replace("XX", "\xff\xfe"), "latin1");
    const res = await send(create, "/listings", key, new Uint8Array(bytes));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "invalid_encoding" });
    expect(await listingCount(account.id)).toBe(0);
  });
});

describe("the API log keeps every row", () => {
  it("stores a request carrying U+0000 and lone surrogates, and the other rows of its batch", async () => {
    const { key } = await accountWithKey();
    const first = await call(ping, { path: "/ping", key });
    const hostile = await send(validate, "/listings/validate", key, '{"title":"a\\u0000b","description":"\\ud800","\\udc00":1}');
    const last = await call(ping, { path: "/ping?note=%00", key });
    for (const id of [first.headers.get("x-request-id"), hostile.headers.get("x-request-id"), last.headers.get("x-request-id")]) {
      expect(await logRow(id!)).toBeDefined();
    }
    const row = await logRow(hostile.headers.get("x-request-id")!);
    expect(row.requestBody).toMatchObject({ title: "a\uFFFDb", description: "\uFFFD", "\uFFFD": 1 });
  });

  it("masks secrets in the query string and never stores the Authorization header", async () => {
    const { key } = await accountWithKey();
    const secret = key.split("|")[1];
    const res = await call(accountListings, {
      path: `/account/listings?api_key=${encodeURIComponent(key)}&token=t0k3n&code=abc123&code_verifier=v3r1f13r&client_secret=cs&refresh_token=rt&key=k&status=active`,
      key,
    });
    const row = await logRow(res.headers.get("x-request-id")!);
    expect(row.query).toBe(
      "?api_key=[redacted]&token=[redacted]&code=[redacted]&code_verifier=[redacted]&client_secret=[redacted]&refresh_token=[redacted]&key=[redacted]&status=active",
    );
    const stored = JSON.stringify(row);
    for (const value of [secret, "t0k3n", "abc123", "v3r1f13r", "Bearer"]) expect(stored).not.toContain(value);
  });

  it("masks a secret passed under any parameter name", async () => {
    const { key } = await accountWithKey();
    const res = await call(ping, { path: `/ping?x=${encodeURIComponent(key)}`, key });
    const row = await logRow(res.headers.get("x-request-id")!);
    expect(row.query).not.toContain(key.split("|")[1]);
    expect(row.query).toContain("[redacted]");
  });
});

describe("client address", () => {
  const request = (forwarded?: string) => forwarded ?? null;

  it("takes the entry appended by the outermost of TRUSTED_PROXY_HOPS proxies, never one the client wrote before it", () => {
    expect(clientIp(request("203.0.113.77, 10.0.0.1"), 1)).toBe("10.0.0.1");
    expect(clientIp(request("203.0.113.77, 10.0.0.1"), 2)).toBe("203.0.113.77");
    expect(clientIp(request("198.51.100.1, 203.0.113.77, 10.0.0.1"), 2)).toBe("203.0.113.77");
    // Fewer entries than proxies: the furthest one there is.
    expect(clientIp(request("203.0.113.77"), 2)).toBe("203.0.113.77");
    expect(clientIp(request("2001:db8::1"), 1)).toBe("2001:db8::1");
    expect(clientIp(request("not-an-address"), 1)).toBe("unknown");
    expect(clientIp(request(), 1)).toBe("unknown");
  });

  it("limits bad-key requests from one client behind two proxies however it forges X-Forwarded-For, and logs its real address", async () => {
    process.env.TRUSTED_PROXY_HOPS = "2";
    resetConfig();
    try {
      await withFrozenClock(async () => {
        const statuses: number[] = [];
        let last: Awaited<ReturnType<typeof call>> | undefined;
        for (let n = 0; n < 301; n++) {
          last = await call(ping, {
            path: "/ping",
            key: "key_x|svc_test_wrong",
            headers: { "x-forwarded-for": `198.51.100.${n % 250}, 203.0.113.77, 10.0.0.${n % 250}` },
          });
          statuses.push(last.status);
        }
        expect(statuses.slice(0, 300).every((status) => status === 401)).toBe(true);
        expect(statuses[300]).toBe(429);
        expect((await logRow(last!.headers.get("x-request-id")!)).ip).toBe("203.0.113.77");
      });
    } finally {
      delete process.env.TRUSTED_PROXY_HOPS;
      resetConfig();
    }
  });
});
