import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { apiLog, apiLogBodies } from "@/db/schema";
import { getApiLogEntry } from "@/lib/domain/api-log/get-api-log-entry";
import { apiLogBodyDays } from "@/lib/domain/api-log/retention";
import { likePrefix, listApiLog, readWindows } from "@/lib/domain/api-log/list-api-log";
import { flushKeyUsage } from "@/lib/domain/keys/last-used";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { ValidationError } from "@/lib/base/errors";
import { flushApiLog } from "@/lib/adapters/http/api-log";
import { applyPartitionRetention, partitionedTables } from "@/lib/adapters/jobs/partitions";
import { accountWithKey, call } from "../support/fixtures";
import { appErrorCode, freshAccount, logRows, signedIn } from "./support";
import { loggedRows } from "@/tests/support/api-log-rows";

const minute = 60_000;
const day = 86_400_000;

/** Every page of the log from the start, following `nextCursor`. */
async function allPages(ctx: Awaited<ReturnType<typeof signedIn>>, input: Parameters<typeof listApiLog>[0]["input"]) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listApiLog({ ctx, input: { ...input, cursor } });
    pages.push(page.items.map((row) => row.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 20);
  return pages;
}

describe("listApiLog", () => {
  it("lists a real request of the account's key with the key's name", async () => {
    const { account, key, keyId } = await accountWithKey();
    const res = await call(ping, { path: "/ping?locale=en", key });
    await flushApiLog();
    await flushKeyUsage();
    const ctx = await signedIn(account);
    const page = await listApiLog({ ctx, input: {} });
    expect(page.nextCursor).toBeNull();
    expect(page.items).toEqual([
      {
        id: expect.stringMatching(/^[1-9][0-9]*$/),
        requestId: res.headers.get("x-request-id"),
        keyId,
        keyName: "test key",
        method: "GET",
        path: "/api/v1/ping",
        status: 200,
        durationMs: expect.any(Number),
        createdAt: expect.any(Date),
      },
    ]);
    const detail = await getApiLogEntry({ ctx, input: { id: page.items[0].id } });
    expect(detail).toMatchObject({ query: "?locale=en", responseBody: { data: { pong: true } }, bodiesExpired: false });
    expect((await listOwnKeys({ ctx })).keys[0].lastUsedAt).toBeInstanceOf(Date);
  });

  it("pages newest first by (created_at, id), rows of one instant included, with no row twice or left out", async () => {
    const account = await freshAccount();
    const start = Date.now() - 10 * minute;
    const same = new Date(start + 5 * minute);
    const ids = await logRows([
      ...[0, 1, 2, 3, 4].map((i) => ({ accountId: account.id, createdAt: new Date(start + i * minute) })),
      { accountId: account.id, createdAt: same },
      { accountId: account.id, createdAt: same },
      { accountId: account.id, createdAt: same },
    ]);
    const ctx = await signedIn(account);
    const newestFirst = [ids[7], ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]];
    const pages = await allPages(ctx, { limit: 3 });
    expect(pages).toEqual([newestFirst.slice(0, 3), newestFirst.slice(3, 6), newestFirst.slice(6)]);
    expect(await allPages(ctx, { limit: 2 })).toHaveLength(4);
    expect((await listApiLog({ ctx, input: {} })).items).toHaveLength(8);
    const exact = await listApiLog({ ctx, input: { limit: 8 } });
    expect(exact.nextCursor).toBeNull();
  });

  it("reads week by week within the 365 days, newest first: a page fills across the windows, older rows are not shown", async () => {
    const account = await freshAccount();
    const now = new Date();
    const [monday] = readWindows(now)[0];
    // One row in each window and on either side of each of their edges; the first two are past the last window.
    const ages = [366 * day, 365 * day + minute, 364 * day, 60 * day, 29 * day, 27 * day, 3 * day, 0];
    const at = (age: number) => new Date(now.getTime() - age);
    const ids = await logRows(ages.map((age) => ({ accountId: account.id, createdAt: at(age) })));
    const edges = [
      new Date(monday.getTime() - 1),
      monday,
      new Date(monday.getTime() - 28 * day),
      new Date(monday.getTime() - 28 * day - 1),
    ];
    const edgeIds = await logRows(edges.map((createdAt) => ({ accountId: account.id, createdAt })));
    const ctx = await signedIn(account, now);

    const shown = [
      ...ages.slice(2).map((age, index) => ({ id: ids[index + 2], at: at(age) })),
      ...edges.map((edge, index) => ({ id: edgeIds[index], at: edge })),
    ];
    const newestFirst = shown.sort((a, b) => b.at.getTime() - a.at.getTime()).map((row) => row.id);
    expect((await allPages(ctx, { limit: 3 })).flat()).toEqual(newestFirst);
    expect((await allPages(ctx, { limit: 100 })).flat()).toEqual(newestFirst);
    expect(newestFirst).not.toContain(ids[0]);
    expect(newestFirst).not.toContain(ids[1]);
  });

  it("filters by status class, key and path prefix (LIKE's characters taken literally), together with paging", async () => {
    const { account, keyId } = await accountWithKey();
    const at = (i: number) => new Date(Date.now() - 10 * minute + i * 1000);
    const ids = await logRows([
      { accountId: account.id, keyId, status: 200, path: "/api/v1/listings", createdAt: at(0) },
      { accountId: account.id, keyId, status: 201, path: "/api/v1/listings/lst_1", createdAt: at(1) },
      { accountId: account.id, keyId: "key_other0000000000", status: 404, path: "/api/v1/listings/lst_2", createdAt: at(2) },
      { accountId: account.id, keyId, status: 422, path: "/api/v1/listings%x", createdAt: at(3) },
      { accountId: account.id, keyId, status: 503, path: "/api/v1/events", createdAt: at(4) },
      { accountId: account.id, keyId, status: 304, path: "/api/v1/schema", createdAt: at(5) },
      { accountId: account.id, keyId, status: 499, path: "/api/v1/listingsXlst", createdAt: at(6) },
    ]);
    const ctx = await signedIn(account);
    const list = async (input: Parameters<typeof listApiLog>[0]["input"]) => (await listApiLog({ ctx, input })).items.map((r) => r.id);
    expect(await list({ status: "2xx" })).toEqual([ids[1], ids[0]]);
    expect(await list({ status: "3xx" })).toEqual([ids[5]]);
    expect(await list({ status: "4xx" })).toEqual([ids[6], ids[3], ids[2]]);
    expect(await list({ status: "5xx" })).toEqual([ids[4]]);
    expect(await list({ keyId: "key_other0000000000" })).toEqual([ids[2]]);
    expect((await listApiLog({ ctx, input: { keyId: "key_other0000000000" } })).items[0].keyName).toBeNull();
    expect(await list({ path: "/api/v1/listings/" })).toEqual([ids[2], ids[1]]);
    expect(await list({ path: "/api/v1/listings%" })).toEqual([ids[3]]);
    expect(await list({ path: "/api/v1/listings_lst" })).toEqual([]);
    expect(await list({ path: "/api/v1/listings", status: "4xx", keyId })).toEqual([ids[6], ids[3]]);
    expect(await allPages(ctx, { path: "/api/v1/listings", limit: 2 })).toEqual([[ids[6], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    expect(likePrefix("a_b%c\\d")).toBe("a\\_b\\%c\\\\d%");
  });

  it("shows only the account's rows, and refuses bad input and cursors", async () => {
    const mine = await freshAccount();
    const other = await freshAccount();
    const [own] = await logRows([{ accountId: mine.id, createdAt: new Date() }]);
    await logRows([
      { accountId: other.id, createdAt: new Date() },
      { accountId: null, status: 401, createdAt: new Date() },
    ]);
    const ctx = await signedIn(mine);
    expect((await listApiLog({ ctx, input: {} })).items.map((r) => r.id)).toEqual([own]);

    const refused = async (input: Parameters<typeof listApiLog>[0]["input"]) => {
      const error = await listApiLog({ ctx, input }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).errors.map((e) => [e.pointer, e.code]);
    };
    expect(await refused({ limit: 0 })).toEqual([["/limit", "min"]]);
    expect(await refused({ limit: 101 })).toEqual([["/limit", "max"]]);
    expect(await refused({ status: "6xx" as "5xx" })).toEqual([["/status", "in"]]);
    for (const cursor of [
      "nonsense",
      Buffer.from(JSON.stringify({ t: "2026-13-01T00:00:00.000000Z", i: 1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ t: "2026-02-30T00:00:00.000000Z", i: 1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ t: "2026-01-01T00:00:00.000000Z", i: "1; drop table api_log" })).toString("base64url"),
    ]) {
      expect(await refused({ cursor })).toEqual([["/cursor", "invalid"]]);
    }
  });
});

describe("getApiLogEntry", () => {
  it("gives the row with query, address and bodies; another account's row and malformed ids are not found", async () => {
    const { account, keyId } = await accountWithKey();
    const other = await freshAccount();
    const [id] = await logRows([
      {
        accountId: account.id,
        keyId,
        method: "POST",
        path: "/api/v1/listings",
        query: "?dry=1",
        status: 201,
        ip: "203.0.113.7",
        requestBody: { title: "Apartament" },
        responseBody: { data: { code: "X1" } },
        createdAt: new Date(),
      },
    ]);
    const [theirs] = await logRows([{ accountId: other.id, createdAt: new Date() }]);
    const ctx = await signedIn(account);
    expect(await getApiLogEntry({ ctx, input: { id } })).toEqual({
      id,
      requestId: expect.any(String),
      keyId,
      keyName: "test key",
      method: "POST",
      path: "/api/v1/listings",
      query: "?dry=1",
      status: 201,
      durationMs: 3,
      ip: "203.0.113.7",
      requestBody: { title: "Apartament" },
      responseBody: { data: { code: "X1" } },
      createdAt: expect.any(Date),
      bodiesExpired: false,
    });
    expect(await appErrorCode(getApiLogEntry({ ctx, input: { id: theirs } }))).toBe("not_found");
    for (const bad of ["", "0", "-1", "abc", "1.5", "01", "99999999999999999999", " 1", `${id} `]) {
      expect(await appErrorCode(getApiLogEntry({ ctx, input: { id: bad } }))).toBe("not_found");
    }
    expect(await appErrorCode(getApiLogEntry({ ctx, input: { id: "9007199254740991" } }))).toBe("not_found");
  });

  it("states the bodies expired after 30 days, before and after the retention job drops them", async () => {
    const account = await freshAccount();
    const now = new Date();
    const [young, old] = await logRows([
      { accountId: account.id, requestBody: { a: 1 }, responseBody: { b: 2 }, createdAt: new Date(now.getTime() - 29 * day) },
      // 50 days: a day no other test file partitions (its bodies are in DEFAULT), wholly past the 30 days.
      { accountId: account.id, requestBody: { a: 1 }, responseBody: { b: 2 }, createdAt: new Date(now.getTime() - 50 * day) },
    ]);
    const ctx = await signedIn(account, now);
    expect(await getApiLogEntry({ ctx, input: { id: young } })).toMatchObject({
      requestBody: { a: 1 },
      responseBody: { b: 2 },
      bodiesExpired: false,
    });
    expect(await getApiLogEntry({ ctx, input: { id: old } })).toMatchObject({ requestBody: null, responseBody: null, bodiesExpired: true });

    const bodiesRetention = partitionedTables.find((target) => target.table === "api_log_bodies")!;
    expect(bodiesRetention.keepDays).toBe(apiLogBodyDays);
    // The job's own step (these bodies are in DEFAULT: the test database's partitions start a month ago).
    await applyPartitionRetention(await database(), bodiesRetention, now);
    const stored = await loggedRows((await database()).connection, eq(apiLog.accountId, account.id));
    expect(stored.map((row) => [String(row.id), row.requestBody])).toEqual(
      expect.arrayContaining([
        [old, null],
        [young, { a: 1 }],
      ]),
    );
    expect(await getApiLogEntry({ ctx, input: { id: old } })).toMatchObject({
      requestBody: null,
      responseBody: null,
      bodiesExpired: true,
      status: 200,
    });
    // 30 days to the millisecond is still kept, as the job keeps it.
    const edge = await getApiLogEntry({ ctx: await signedIn(account, new Date(now.getTime() + day)), input: { id: young } });
    expect(edge.bodiesExpired).toBe(false);
    const after = await getApiLogEntry({ ctx: await signedIn(account, new Date(now.getTime() + day + 1)), input: { id: young } });
    expect(after).toMatchObject({ bodiesExpired: true, requestBody: null });
  });

  it("redacts on the way out what a row written under older rules may still hold", async () => {
    const account = await freshAccount();
    const secretLike = ["svc", "test", "A".repeat(40)].join("_");
    const { connection: db } = await database();
    const [id] = await logRows([
      {
        accountId: account.id,
        path: "/api/v1/ping",
        query: "?code=abc&x=1",
        requestBody: { client_secret: "plain", note: `key ${secretLike}`, nested: [{ access_token: "t" }] },
        responseBody: { link: "https://x.example/cb?code=abc&state=s" },
        createdAt: new Date(),
      },
    ]);
    try {
      const entry = await getApiLogEntry({ ctx: await signedIn(account), input: { id } });
      expect(entry.query).toBe("?code=[redacted]&x=1");
      expect(entry.requestBody).toEqual({ client_secret: "[redacted]", note: "key [redacted]", nested: [{ access_token: "[redacted]" }] });
      expect(entry.responseBody).toEqual({ link: "https://x.example/cb?code=[redacted]&state=s" });
    } finally {
      // The file's audit (tests/setup) rightly fails on any secret-shaped value left in the log.
      await db.delete(apiLog).where(eq(apiLog.id, Number(id)));
      await db.delete(apiLogBodies).where(eq(apiLogBodies.id, Number(id)));
    }
  });
});
