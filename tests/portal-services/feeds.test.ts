import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { ValidationError } from "@/lib/base/errors";
import { createOwnKey } from "@/lib/domain/keys/create-key";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { createFeed } from "@/lib/domain/feeds/create-feed";
import { deleteFeed } from "@/lib/domain/feeds/delete-feed";
import { listFeeds } from "@/lib/domain/feeds/list-feeds";
import { requestPull } from "@/lib/domain/feeds/request-pull";
import { createdKeys } from "../support/fixtures";
import { appErrorCode, freshAccount, signedIn } from "./support";

beforeAll(() => {
  vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
  resetConfig();
});

afterAll(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

const url = "http://127.0.0.1:9/feed.ndjson";

async function keyOf(ctx: Awaited<ReturnType<typeof signedIn>>, permissions: ("listings:read" | "listings:write")[]) {
  const key = await createOwnKey({ ctx, input: { name: "CRM", permissions, days: 90 } });
  createdKeys.push(key.key);
  return key.id;
}

describe("the portal's Feeds page services", () => {
  it("adds a feed written as the key the owner chose, lists it, pulls it now and deletes it", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const keyId = await keyOf(ctx, ["listings:read", "listings:write"]);
    const feed = await createFeed({ ctx, input: { fields: { url, mode: "full", max_withdrawals: 3, interval_minutes: 15 }, keyId } });
    expect(feed).toMatchObject({ url, mode: "full", max_withdrawals: 3, interval_minutes: 15, last_pull: null });
    expect((await listFeeds({ ctx, input: {} })).items.map((item) => item.id)).toEqual([feed.id]);

    expect(await requestPull({ ctx, input: { id: feed.id } })).toMatchObject({ id: feed.id, pulling: true });
    expect(await appErrorCode(requestPull({ ctx, input: { id: feed.id } }))).toBe("feed_pull_in_progress");

    const other = await signedIn(await freshAccount());
    expect(await appErrorCode(deleteFeed({ ctx: other, input: { id: feed.id } }))).toBe("not_found");
    await deleteFeed({ ctx, input: { id: feed.id } });
    expect((await listFeeds({ ctx, input: {} })).items).toEqual([]);
  });

  it("refuses a key that cannot write listings, a revoked one and another account's at /key_id", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const readOnly = await keyOf(ctx, ["listings:read"]);
    const revoked = await keyOf(ctx, ["listings:write"]);
    await revokeKey({ ctx, input: { id: revoked } });
    const theirs = await keyOf(await signedIn(await freshAccount()), ["listings:write"]);
    for (const keyId of [readOnly, revoked, theirs, undefined]) {
      const error = await createFeed({ ctx, input: { fields: { url }, keyId } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual([
        expect.objectContaining({ pointer: "/key_id", code: "invalid_value", params: { reason: "feed_key_unusable" } }),
      ]);
    }
    expect((await listFeeds({ ctx, input: {} })).items).toEqual([]);
  });
});
