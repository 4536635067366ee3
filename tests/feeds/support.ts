import { eq } from "drizzle-orm";
import { database } from "@/db";
import { listingFeeds } from "@/db/schema";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/feeds/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/v1/feeds/[id]/route";
import { POST as pullRoute } from "@/app/api/v1/feeds/[id]/pull/route";
import { systemContext } from "@/lib/base/context";
import { pullFeed } from "@/lib/domain/feeds/pull-feed";
import { call } from "../support/fixtures";

export const postFeed = (key: string, body: Record<string, unknown>) => call(createRoute, { path: "/feeds", method: "POST", key, body });

export const listFeeds = (key: string, query = "") => call(listRoute, { path: `/feeds${query}`, key });

export const getFeed = (key: string, id: string) => call(getRoute, { path: `/feeds/${id}`, key, params: { id } });

export const deleteFeed = (key: string, id: string) => call(deleteRoute, { path: `/feeds/${id}`, method: "DELETE", key, params: { id } });

export const pullNow = (key: string, id: string) => call(pullRoute, { path: `/feeds/${id}/pull`, method: "POST", key, params: { id } });

/**
 * A feed of the key's account at `url`, registered through the API; its id. Its next pull is moved
 * far ahead unless `nextPullAt` is given: on PostgreSQL the files share one database, and another
 * file's scheduler pass (`jobs:run`) would otherwise claim it mid-test.
 */
export async function feedAt(key: string, url: string, fields: Record<string, unknown> = {}, nextPullAt = farAhead): Promise<string> {
  const res = await postFeed(key, { url, ...fields });
  if (res.status !== 201) throw new Error(`POST /feeds answered ${res.status}: ${res.text}`);
  const id = res.json!.data.id as string;
  await (await database()).connection.update(listingFeeds).set({ nextPullAt }).where(eq(listingFeeds.id, id));
  return id;
}

const farAhead = new Date("2200-01-01T00:00:00Z");

/** One pull of the feed as its job runs it, at `now` (the real time unless given). */
export async function pullAt(feedId: string, now?: Date, timeoutMs?: number) {
  return pullFeed({ ctx: systemContext(await database(), now ? { now } : {}), input: { feedId, ...(timeoutMs ? { timeoutMs } : {}) } });
}

export async function feedRow(id: string) {
  const [row] = await (await database()).connection.select().from(listingFeeds).where(eq(listingFeeds.id, id));
  return row;
}
