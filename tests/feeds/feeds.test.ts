import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { GET as readByRef } from "@/app/api/v1/account/listings/ref/[ref]/route";
import { database } from "@/db";
import { resetConfig } from "@/lib/base/config";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { pullFeedJob } from "@/lib/adapters/jobs/feed-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { maxImportBodyBytes } from "@/lib/domain/imports/limits";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { activeListing, validApartment } from "../support/listings";
import { getImport, ndjson, runImportToEnd } from "../imports/support";
import { deleteFeed, feedAt, feedRow, getFeed, listFeeds, postFeed, pullAt, pullNow } from "./support";

/** What the local feed server answers for a path: set by each test. */
type Answer = (request: ReceivedRequest, res: http.ServerResponse) => void;
const answers = new Map<string, Answer>();
let server: LocalServer;

beforeAll(async () => {
  vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
  resetConfig();
  server = await startHttpServer((request, res) => {
    const answer = answers.get(request.url);
    if (!answer) return res.writeHead(404).end();
    answer(request, res);
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfig();
  await server.close();
});

let served = 0;
/** A path of the local server answering with `answer`; its full URL. */
function serve(answer: Answer): string {
  const path = `/feed-${++served}`;
  answers.set(path, answer);
  return `${server.origin}${path}`;
}

const line = (ref: string, overrides: Record<string, unknown> = {}) => validApartment({ external_ref: ref, ...overrides });

/** A file with an ETag: `304` when the request sends it back. */
const fileWithEtag =
  (body: string, etag: string, type = "application/x-ndjson"): Answer =>
  (request, res) => {
    if (request.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { "content-type": type, etag, "last-modified": "Sun, 29 Nov 2026 10:00:00 GMT" }).end(body);
  };

const requestsTo = (url: string) => server.received.filter((request) => url.endsWith(request.url));

const status = async (key: string, ref: string) =>
  (await call(readByRef, { path: `/account/listings/ref/${ref}`, key, params: { ref } })).json?.data?.status as string | undefined;

describe("POST /feeds, GET /feeds, GET and DELETE /feeds/{id}", () => {
  it("registers a feed due at once with the defaults, lists it, reads it and deletes it", async () => {
    const { key } = await accountWithKey();
    const url = serve(fileWithEtag(ndjson([line("reg-1")]), '"v1"'));
    const created = await postFeed(key, { url });
    expect(created.status).toBe(201);
    const feed = created.json!.data;
    expect(created.headers.get("location")).toBe(`/api/v1/feeds/${feed.id}`);
    expect(feed).toMatchObject({
      id: expect.stringMatching(/^feed_[0-9a-z]{16}$/),
      url,
      mode: "upsert",
      max_withdrawals: null,
      interval_minutes: 60,
      pulling: false,
      last_pull: null,
      failing_since: null,
    });
    expect(Date.parse(feed.next_pull_at)).toBeLessThanOrEqual(Date.now());

    expect((await getFeed(key, feed.id)).json!.data).toEqual(feed);
    const listed = await listFeeds(key);
    expect(listed.json!.data).toEqual([feed]);
    expect(listed.json!.links.next).toBeNull();

    expect((await deleteFeed(key, feed.id)).status).toBe(204);
    expect((await getFeed(key, feed.id)).status).toBe(404);
    expect((await listFeeds(key)).json!.data).toEqual([]);
  });

  it("pages the list newest first with per_page and cursor", async () => {
    const { key } = await accountWithKey();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await feedAt(key, serve(fileWithEtag("", `"p${i}"`))));
    const first = await listFeeds(key, "?per_page=2");
    expect(first.json!.data.map((feed: { id: string }) => feed.id)).toEqual([ids[2], ids[1]]);
    expect(first.json!.meta).toMatchObject({ per_page: 2, next_cursor: expect.any(String) });
    const second = await listFeeds(key, `?per_page=2&cursor=${first.json!.meta.next_cursor}`);
    expect(second.json!.data.map((feed: { id: string }) => feed.id)).toEqual([ids[0]]);
    expect(second.json!.links.next).toBeNull();
    expect((await listFeeds(key, "?cursor=nonsense")).status).toBe(422);
  });

  it("refuses an interval under 15 minutes, a mode it does not know and a private address with 422 and pointers", async () => {
    const { key } = await accountWithKey();
    const short = await postFeed(key, { url: serve(fileWithEtag("", '"x"')), interval_minutes: 14 });
    expect(short.status).toBe(422);
    expect(short.headers.get("content-type")).toBe("application/problem+json");
    expect(short.json).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/interval_minutes", code: "min" }] });

    const long = await postFeed(key, { url: serve(fileWithEtag("", '"x"')), interval_minutes: 10_081, mode: "sometimes" });
    expect(long.json!.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/interval_minutes", "/mode"]);

    const privateAddress = await postFeed(key, { url: "https://10.1.2.3/feed.ndjson" });
    expect(privateAddress.status).toBe(422);
    expect(privateAddress.json).toMatchObject({ errors: [{ pointer: "/url", code: "invalid_value", reason: "url_not_public" }] });

    const notJson = await call((await import("@/app/api/v1/feeds/route")).POST, {
      path: "/feeds",
      method: "POST",
      key,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toMatchObject({ code: "malformed_json" });
    expect((await listFeeds(key)).json!.data).toEqual([]);
  });

  it("refuses http:// when local URLs are not allowed, as in production", async () => {
    const { key } = await accountWithKey();
    vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "0");
    resetConfig();
    try {
      const res = await postFeed(key, { url: serve(fileWithEtag("", '"x"')) });
      expect(res.status).toBe(422);
      expect(res.json).toMatchObject({ errors: [{ pointer: "/url", code: "url" }] });
    } finally {
      vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
      resetConfig();
    }
  });

  it("answers another account's feed like a missing one, on every route", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const id = await feedAt(owner.key, serve(fileWithEtag("", '"x"')));
    for (const res of [await getFeed(stranger.key, id), await pullNow(stranger.key, id), await deleteFeed(stranger.key, id)]) {
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: "not_found" });
    }
    expect((await listFeeds(stranger.key)).json!.data).toEqual([]);
    expect((await getFeed(owner.key, id)).status).toBe(200);
  });

  it("refuses an eleventh feed with 409 limit_reached", async () => {
    const { key } = await accountWithKey();
    for (let i = 0; i < 10; i++) await feedAt(key, serve(fileWithEtag("", '"x"')));
    const res = await postFeed(key, { url: serve(fileWithEtag("", '"x"')) });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: "limit_reached", reason: "too_many_feeds" });
  });
});

describe("pulling a feed", () => {
  it("imports a changed NDJSON file with feed_id, then costs one 304 when it is unchanged", async () => {
    const { key } = await accountWithKey();
    const url = serve(fileWithEtag(ndjson([line("nd-1"), line("nd-2"), { external_ref: "nd-3" }]), '"v1"'));
    const id = await feedAt(key, url);

    const first = await pullAt(id);
    expect(first).toMatchObject({ outcome: "changed", importId: expect.stringMatching(/^imp_/) });
    await runImportToEnd(first.importId!);
    const report = (await getImport(key, first.importId!)).json!.data;
    expect(report).toMatchObject({ status: "completed", mode: "upsert", feed_id: id, lines: { total: 3, created: 2, refused: 1 } });
    expect(await status(key, "nd-1")).toBeDefined();
    const events = (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: Record<string, unknown> }[];
    expect(events.find((event) => event.type === "import.completed")?.data).toMatchObject({ id: first.importId, feed_id: id });

    const feed = (await getFeed(key, id)).json!.data;
    expect(feed.last_pull).toMatchObject({ outcome: "changed", http_status: 200, error_code: null, import_id: first.importId });
    expect(feed).toMatchObject({ pulling: false, failing_since: null });

    const second = await pullAt(id);
    expect(second).toEqual({ outcome: "unchanged" });
    const conditional = requestsTo(url).at(-1)!;
    expect(conditional.headers).toMatchObject({ "if-none-match": '"v1"', "if-modified-since": "Sun, 29 Nov 2026 10:00:00 GMT" });
    expect((await getFeed(key, id)).json!.data.last_pull).toMatchObject({ outcome: "unchanged", http_status: 304, import_id: null });
    expect((await feedRow(id)).etag).toBe('"v1"');
  });

  it("reads a JSON array, by its media type or its first character, as one line per element", async () => {
    const { key } = await accountWithKey();
    const byType = await feedAt(key, serve(fileWithEtag(JSON.stringify([line("ja-1"), line("ja-2")]), '"a"', "application/json")));
    const byBracket = await feedAt(key, serve(fileWithEtag(`  \n[${JSON.stringify(line("jb-1"))}]`, '"b"', "text/plain")));
    for (const id of [byType, byBracket]) {
      const pulled = await pullAt(id);
      expect(pulled.outcome).toBe("changed");
      await runImportToEnd(pulled.importId!);
    }
    expect(await status(key, "ja-2")).toBeDefined();
    expect(await status(key, "jb-1")).toBeDefined();
    const broken = await feedAt(key, serve(fileWithEtag("[{", '"c"', "application/json")));
    expect(await pullAt(broken)).toMatchObject({ outcome: "failed" });
    expect((await getFeed(key, broken)).json!.data.last_pull).toMatchObject({
      outcome: "failed",
      error_code: "malformed_json",
      http_status: 200,
    });
  });

  it("applies a full feed with its cap: a truncated file is refused and withdraws nothing", async () => {
    const { key } = await accountWithKey();
    for (const ref of ["fl-1", "fl-2", "fl-3", "fl-4"]) await activeListing(key, line(ref));
    const id = await feedAt(key, serve(fileWithEtag(ndjson([line("fl-1")]), '"t"')), { mode: "full", max_withdrawals: 1 });
    const pulled = await pullAt(id);
    await runImportToEnd(pulled.importId!);
    const report = (await getImport(key, pulled.importId!)).json!.data;
    expect(report).toMatchObject({
      status: "refused",
      mode: "full",
      feed_id: id,
      error: { code: "too_many_withdrawals", withdrawals: 3, limit: 1 },
    });
    expect(await status(key, "fl-4")).toBe("active");
  });

  it("fails on a 5xx, a timeout and a file over the import's limit, importing nothing, and keeps the last validators", async () => {
    const { key } = await accountWithKey();
    const id = await feedAt(
      key,
      serve((_, res) => res.writeHead(503).end("down")),
    );
    const before = Date.now();
    expect(await pullAt(id)).toMatchObject({ outcome: "failed" });
    const failed = (await getFeed(key, id)).json!.data;
    expect(failed.last_pull).toMatchObject({ outcome: "failed", http_status: 503, error_code: "http_error", import_id: null });
    expect(Date.parse(failed.failing_since)).toBeGreaterThanOrEqual(before - 1000);

    const hung = await feedAt(
      key,
      serve(() => undefined),
    );
    expect(await pullAt(hung, undefined, 300)).toMatchObject({ outcome: "failed" });
    expect((await getFeed(key, hung)).json!.data.last_pull).toMatchObject({ error_code: "timeout", http_status: null });

    // Streamed past the limit without a length, and declared over it.
    const streamed = serve((_, res) => {
      res.on("error", () => undefined);
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const chunk = `${JSON.stringify(line("big", { description: "x".repeat(60_000) }))}\n`;
      let sent = 0;
      const more = () => {
        while (sent <= maxImportBodyBytes && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    });
    const declared = serve((_, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson", "content-length": String(maxImportBodyBytes + 1) });
      res.write(`${JSON.stringify(line("big"))}\n`);
    });
    for (const url of [streamed, declared]) {
      const huge = await feedAt(key, url);
      expect(await pullAt(huge)).toMatchObject({ outcome: "failed" });
      expect((await getFeed(key, huge)).json!.data.last_pull).toMatchObject({ error_code: "payload_too_large", import_id: null });
    }
    expect(await status(key, "big")).toBeUndefined();
  });

  it("fails without a request once the feed's key is revoked", async () => {
    const { key, keyId } = await accountWithKey();
    const url = serve(fileWithEtag(ndjson([line("rv-1")]), '"r"'));
    const id = await feedAt(key, url);
    await revokeAnyKey({ ctx: await operatorCtx(), input: { id: keyId } });
    expect(await pullAt(id)).toMatchObject({ outcome: "failed" });
    expect(requestsTo(url)).toEqual([]);
    const [row] = [await feedRow(id)];
    expect(row).toMatchObject({ lastPullOutcome: "failed", lastPullErrorCode: "key_revoked" });
  });
});

describe("POST /feeds/{id}/pull", () => {
  it("queues a pull (202), refuses another while it or its import is pending (409), and the job pulls", async () => {
    const { key } = await accountWithKey();
    const id = await feedAt(key, serve(fileWithEtag(ndjson([line("pn-1")]), '"n"')));
    const queued = await pullNow(key, id);
    expect(queued.status).toBe(202);
    expect(queued.json!.data).toMatchObject({ id, pulling: true });
    const again = await pullNow(key, id);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: "feed_pull_in_progress" });

    const opened = await database();
    for (let i = 0; i < 50 && (await feedRow(id)).pullClaimedAt; i++) await runDueJobs({ database: opened, jobs: [pullFeedJob] });
    const pulled = (await getFeed(key, id)).json!.data;
    expect(pulled.last_pull).toMatchObject({ outcome: "changed", import_id: expect.stringMatching(/^imp_/) });
    // Its import is queued: still pulling until it ends.
    expect(pulled.pulling).toBe(true);
    expect((await pullNow(key, id)).status).toBe(409);
    await runImportToEnd(pulled.last_pull.import_id);
    expect((await getFeed(key, id)).json!.data.pulling).toBe(false);
    expect((await pullNow(key, id)).status).toBe(202);
  });
});
