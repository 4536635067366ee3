import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { ApiError } from "@/sdk/src/index";
import { clientOfNewAccount } from "./support";

beforeAll(() => {
  vi.stubEnv("UNSAFE_ALLOW_LOCAL_URLS", "1");
  resetConfig();
});

afterAll(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

describe("client.feeds", () => {
  it("registers feeds, lists them page after page, reads one, pulls it now and deletes it", async () => {
    const { client } = await clientOfNewAccount();
    const first = await client.feeds.create({ url: "http://127.0.0.1:9/a.ndjson", mode: "full", max_withdrawals: 2, interval_minutes: 30 });
    expect(first.lastResponse.status).toBe(201);
    expect(first.data).toMatchObject({ mode: "full", max_withdrawals: 2, interval_minutes: 30, last_pull: null });
    const second = await client.feeds.create({ url: "http://127.0.0.1:9/b.ndjson" });

    const listed: string[] = [];
    for await (const feed of client.feeds.list(1)) listed.push(feed.id);
    expect(listed).toEqual([second.data.id, first.data.id]);

    expect((await client.feeds.get(first.data.id)).data.url).toBe("http://127.0.0.1:9/a.ndjson");
    const pulled = await client.feeds.pull(first.data.id);
    expect(pulled.lastResponse.status).toBe(202);
    expect(pulled.data.pulling).toBe(true);
    const again = await client.feeds.pull(first.data.id).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ApiError);
    expect((again as ApiError).code).toBe("feed_pull_in_progress");

    expect((await client.feeds.delete(first.data.id)).status).toBe(204);
    const gone = await client.feeds.get(first.data.id).catch((error: unknown) => error);
    expect((gone as ApiError).status).toBe(404);
  });
});
