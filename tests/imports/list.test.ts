import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listRoute } from "@/app/api/v1/listings/imports/route";
import { database } from "@/db";
import { listingImports } from "@/db/schema";
import { resetConfig } from "@/lib/base/config";
import { accountWithKey, call } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { feedAt } from "../feeds/support";
import { getImport, ndjson, postImport, runImportToEnd } from "./support";

const listImports = (key: string, query = "") => call(listRoute, { path: `/listings/imports${query}`, key });

/** An import of `refs` sent and run to its end; its id. */
async function importOf(key: string, refs: string[]): Promise<string> {
  const sent = await postImport(key, ndjson(refs.map((ref) => validApartment({ external_ref: ref }))));
  expect(sent.status, sent.text).toBe(202);
  await runImportToEnd(sent.json!.data.id);
  return sent.json!.data.id;
}

// The feeds here are never pulled: a loopback address is only accepted at registration.
beforeAll(() => {
  vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
  resetConfig();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

/** Marks the import as made by the feed, as a pull writes it. */
async function madeByFeed(importId: string, feedId: string) {
  await (await database()).connection.update(listingImports).set({ feedId }).where(eq(listingImports.id, importId));
}

describe("GET /listings/imports", () => {
  it("lists the account's imports newest first, a page at a time, each as its summary", async () => {
    const { key } = await accountWithKey({ permissions: ["listings:read", "listings:write"] });
    const ids = [await importOf(key, ["li-1", "li-2"]), await importOf(key, ["li-1"]), await importOf(key, ["li-3"])];

    const first = await listImports(key, "?per_page=2");
    expect(first.status).toBe(200);
    expect(first.json!.data.map((item: { id: string }) => item.id)).toEqual([ids[2], ids[1]]);
    expect(first.json!.meta).toMatchObject({
      per_page: 2,
      next_cursor: expect.any(String),
      path: expect.stringMatching(/\/listings\/imports$/),
    });
    expect(first.json!.links.next).toContain(`cursor=${first.json!.meta.next_cursor}`);

    const second = await call(listRoute, { path: first.json!.links.next.replace(/^.*\/api\/v1/, ""), key });
    expect(second.json!.data.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
    expect(second.json!.links.next).toBeNull();

    // The summary is the import's own members but its results, with when it was sent and ended.
    const item = second.json!.data[0];
    const { results, ...members } = (await getImport(key, ids[0])).json!.data;
    expect(results).toHaveLength(2);
    expect(item).toEqual({ ...members, created_at: expect.any(String), completed_at: expect.any(String) });
    expect(item).toMatchObject({ status: "completed", mode: "upsert", feed_id: null, error: null, lines: { total: 2, created: 2 } });
    expect(Date.parse(item.completed_at)).toBeGreaterThanOrEqual(Date.parse(item.created_at));
  });

  it("keeps one feed's imports with feed_id; another account's feed or an unknown one lists nothing", async () => {
    const { key } = await accountWithKey();
    const other = await accountWithKey();
    const feedId = await feedAt(key, "http://127.0.0.1:9/a.ndjson");
    const othersFeed = await feedAt(other.key, "http://127.0.0.1:9/b.ndjson");
    const byFeed = await importOf(key, ["lf-1"]);
    await madeByFeed(byFeed, feedId);
    await importOf(key, ["lf-2"]);

    const filtered = await listImports(key, `?feed_id=${feedId}`);
    expect(filtered.json!.data.map((item: { id: string; feed_id: string }) => [item.id, item.feed_id])).toEqual([[byFeed, feedId]]);
    expect(filtered.json!.links.first).toContain(`feed_id=${feedId}`);
    expect((await listImports(key)).json!.data).toHaveLength(2);

    for (const id of [othersFeed, "feed_0000000000000000", "anything"]) {
      const res = await listImports(key, `?feed_id=${id}`);
      expect(res.status).toBe(200);
      expect(res.json!.data).toEqual([]);
    }
  });

  it("never lists another account's imports", async () => {
    const mine = await accountWithKey();
    const theirs = await accountWithKey();
    const theirImport = await importOf(theirs.key, ["other-1"]);
    const myImport = await importOf(mine.key, ["mine-1"]);
    const listed = (await listImports(mine.key)).json!.data.map((item: { id: string }) => item.id);
    expect(listed).toEqual([myImport]);
    expect(listed).not.toContain(theirImport);
  });

  it("refuses a cursor it did not write and a per_page out of range with 422 problem+json and the pointer, in the request's language", async () => {
    const { key } = await accountWithKey();
    const cursor = await listImports(key, "?cursor=nonsense");
    expect(cursor.status).toBe(422);
    expect(cursor.headers.get("content-type")).toBe("application/problem+json");
    expect(cursor.json).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/cursor", reason: "unknown_cursor" }] });

    for (const perPage of ["0", "101", "ten"]) {
      const res = await listImports(key, `?per_page=${perPage}`);
      expect(res.status).toBe(422);
      expect(res.json!.errors[0].pointer).toBe("/per_page");
    }

    const english = await listImports(key, "?cursor=nonsense&locale=en");
    const romanian = await listImports(key, "?cursor=nonsense&locale=ro");
    expect(english.json!.errors[0].detail).toBe("Not a cursor given by this API.");
    expect(romanian.json!.errors[0].detail).toBe("Nu este un cursor dat de acest API.");
  });

  it("asks for listings:read", async () => {
    const { key } = await accountWithKey({ permissions: ["media:write"] });
    const res = await listImports(key);
    expect(res.status).toBe(403);
  });
});
