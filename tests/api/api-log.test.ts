import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { apiLog } from "@/db/schema";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { keyedEndpoint } from "@/lib/adapters/http/endpoint";
import { maxBodyBytes } from "@/lib/adapters/http/body";
import { json } from "@/lib/adapters/http/respond";
import { accountWithKey, call } from "../support/fixtures";
import { loggedRow } from "@/tests/support/api-log-rows";

const echo = keyedEndpoint(null, async ({ body }) => json({ received: await body() }));

describe("API log", () => {
  it("records every request with request id, key, method, path, status and duration", async () => {
    const { key, keyId } = await accountWithKey();
    const res = await call(ping, { path: "/ping?locale=en", key });
    await flushApiLog();
    const row = await loggedRow(res.headers.get("x-request-id")!);
    expect(row).toMatchObject({ keyId, method: "GET", path: "/api/v1/ping", query: "?locale=en", status: 200 });
    expect(row.durationMs).toBeGreaterThanOrEqual(0);
    expect(row.responseBody).toEqual(res.json);
  });

  it("keeps a response body with nothing to redact exactly as sent, and walks one with secrets", async () => {
    const { key } = await accountWithKey();
    const sent = { data: { title: "Apartament cu 2 camere", prețuri: [1, 2.5, null], link: "https://exemplu.ro/a" } };
    const plain = await call(
      keyedEndpoint(null, async () => json(sent)),
      { path: "/plain", key },
    );
    const secret = await call(
      keyedEndpoint(null, async () => json({ data: { webhook_secret: "whsec_c2VjcmV0", next: "https://exemplu.ro/x?key=k&a=1" } })),
      { path: "/secret", key },
    );
    expect((await loggedRow(plain.headers.get("x-request-id")!)).responseBody).toEqual(sent);
    expect((await loggedRow(secret.headers.get("x-request-id")!)).responseBody).toEqual({
      data: { webhook_secret: "[redacted]", next: "https://exemplu.ro/x?key=[redacted]&a=1" },
    });
  });

  it("writes each entry of a batch with its own bodies, whichever bodies it has", async () => {
    const { key } = await accountWithKey();
    const empty = keyedEndpoint(null, async ({ body }) => {
      await body();
      return new Response(null, { status: 204 });
    });
    // Written together: nothing is flushed until every request has been answered.
    const both = await call(echo, { path: "/echo", method: "POST", key, body: { n: 1, text: "ș\u001ed" } });
    const requestOnly = await call(empty, { path: "/empty", method: "POST", key, body: { n: 2 } });
    const responseOnly = await call(ping, { path: "/ping", key });
    const neither = await call(
      keyedEndpoint(null, async () => new Response(null, { status: 204 })),
      { path: "/nothing", key },
    );
    const bodiesOf = async (answer: Awaited<ReturnType<typeof call>>) => {
      const { requestBody, responseBody } = await loggedRow(answer.headers.get("x-request-id")!);
      return { requestBody, responseBody };
    };
    expect(await bodiesOf(both)).toEqual({
      requestBody: { n: 1, text: "ș\u001ed" },
      responseBody: { received: { n: 1, text: "ș\u001ed" } },
    });
    expect(await bodiesOf(requestOnly)).toEqual({ requestBody: { n: 2 }, responseBody: null });
    expect(await bodiesOf(responseOnly)).toEqual({ requestBody: null, responseBody: responseOnly.json });
    expect(await bodiesOf(neither)).toEqual({ requestBody: null, responseBody: null });
  });

  it("never stores secrets from bodies", async () => {
    const { key } = await accountWithKey();
    const res = await call(echo, {
      path: "/echo",
      method: "POST",
      key,
      body: { password: "hunter2hunter2", note: `my key is ${key}`, webhook: "whsec_c2VjcmV0c2VjcmV0", client_secret: "svcs_abc" },
    });
    expect(res.status).toBe(200);
    await flushApiLog();
    const row = await loggedRow(res.headers.get("x-request-id")!);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain("hunter2");
    expect(stored).not.toContain(key.split("|")[1]);
    expect(stored).not.toContain("whsec_c2Vj");
    expect(stored).not.toContain("svcs_abc");
    expect(row.requestBody).toMatchObject({ password: "[redacted]", note: "my key is key_" + key.slice(4, 20) + "|[redacted]" });
  });

  it("does not fail the request when the log write fails", async () => {
    const { key, account } = await accountWithKey();
    const { connection: db } = await database();
    // A trigger refuses this account's log rows only: on PostgreSQL other test files write the table
    // meanwhile (renaming it made their queries fail).
    const refusal = `refuse_log_${account.id}`;
    expect(refusal).toMatch(/^[a-z0-9_]+$/);
    await db.execute(
      sql.raw(`create function ${refusal}() returns trigger language plpgsql as $$ begin raise exception 'log write refused'; end $$`),
    );
    await db.execute(
      sql.raw(
        `create trigger ${refusal} before insert on api_log for each row when (new.account_id = '${account.id}') execute function ${refusal}()`,
      ),
    );
    try {
      const res = await call(ping, { path: "/ping", key });
      expect(res.status).toBe(200);
      await expect(flushApiLog()).resolves.toBeUndefined();
      expect(await db.select().from(apiLog).where(eq(apiLog.accountId, account.id))).toEqual([]);
    } finally {
      await db.execute(sql.raw(`drop trigger ${refusal} on api_log`));
      await db.execute(sql.raw(`drop function ${refusal}()`));
    }
  });
});

describe("request bodies", () => {
  it("answers malformed JSON with 400 malformed_json", async () => {
    const { key } = await accountWithKey();
    const res = await call(echo, {
      path: "/echo",
      method: "POST",
      key,
      rawBody: "{ nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json?.code).toBe("malformed_json");
  });

  it("answers a wrong content type with 415", async () => {
    const { key } = await accountWithKey();
    const res = await call(echo, {
      path: "/echo",
      method: "POST",
      key,
      rawBody: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.json?.code).toBe("unsupported_media_type");
  });

  it("answers a body over the documented limit with 413", async () => {
    const { key } = await accountWithKey();
    const res = await call(echo, {
      path: "/echo",
      method: "POST",
      key,
      rawBody: JSON.stringify({ a: "x".repeat(maxBodyBytes) }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(res.json?.code).toBe("payload_too_large");
  });
});
