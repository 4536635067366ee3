import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { jobs, listingFeeds } from "@/db/schema";
import { accountContext, systemContext } from "@/lib/base/context";
import { schedulePulls } from "@/lib/domain/feeds/schedule-pulls";
import { listFeeds as listFeedsService } from "@/lib/domain/feeds/list-feeds";
import { onPostgresRun } from "../support/engine";
import { restoreEnv, setEnv } from "../support/env";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { startSmtpServer, type LocalSmtpServer } from "../support/smtp-server";
import { accountWithKey } from "../support/fixtures";
import { validApartment } from "../support/listings";
import { ndjson } from "../imports/support";
import { feedAt, feedRow, getFeed, pullAt } from "./support";

let smtp: LocalSmtpServer;
let up = false;
let feedServer: LocalServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  setEnv({ SMTP_URL: smtp.url, UNSAFE_ALLOW_LOCAL_URLS: "1" });
  feedServer = await startHttpServer((request, res) => {
    if (!up) return res.writeHead(500).end();
    res
      .writeHead(200, { "content-type": "application/x-ndjson" })
      .end(ndjson([validApartment({ external_ref: `s-${request.url.slice(1)}` })]));
  });
});

afterAll(async () => {
  restoreEnv();
  await feedServer.close();
  await smtp.close();
});

const minute = 60_000;
const hour = 60 * minute;

/**
 * A moment of the year 2001, its own for each test: feeds due then are this file's alone (every
 * other feed is due now or later), so a pass at that moment claims only them.
 */
const pastMoment = () => new Date(Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 300 * 24) * hour);

async function pendingPullJobs(feedIds: string[]) {
  const rows = await (
    await database()
  ).connection
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.name, "feeds.pull"), inArray(jobs.status, ["queued", "running"])));
  return rows.map((row) => (row.payload as { feedId: string }).feedId).filter((id) => feedIds.includes(id));
}

describe("feeds.schedule", () => {
  it("claims only the due feeds, queues one pull each, and moves their next pull one interval on", async () => {
    const { key } = await accountWithKey();
    const at = pastMoment();
    const due = await feedAt(key, `${feedServer.origin}/due`, { interval_minutes: 30 }, at);
    const later = await feedAt(key, `${feedServer.origin}/later`, {}, new Date(at.getTime() + 2 * hour));
    const now = new Date(at.getTime() + minute);

    const pass = await schedulePulls({ ctx: systemContext(await database(), { now }) });
    expect(pass.feedIds.filter((claimed) => [due, later].includes(claimed))).toEqual([due]);
    expect(await pendingPullJobs([due, later])).toEqual([due]);
    expect(await feedRow(due)).toMatchObject({ pullClaimedAt: now, nextPullAt: new Date(now.getTime() + 30 * minute) });
    expect(await feedRow(later)).toMatchObject({ pullClaimedAt: null });
    expect((await getFeed(key, due)).json!.data.pulling).toBe(true);

    // Not due again before its interval; due again and its claim lapsed (no pull ran for 15 minutes), claimed again.
    const mine = async (at: Date) =>
      (await schedulePulls({ ctx: systemContext(await database(), { now: at }) })).feedIds.filter((claimed) =>
        [due, later].includes(claimed),
      );
    expect(await mine(new Date(now.getTime() + 10 * minute))).toEqual([]);
    expect(await mine(new Date(now.getTime() + 40 * minute))).toEqual([due]);
    expect(await pendingPullJobs([due, later])).toEqual([due]);
  });

  it("claims each feed once when two passes run at the same moment (FOR UPDATE SKIP LOCKED)", async () => {
    const { key } = await accountWithKey();
    const at = pastMoment();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await feedAt(key, `${feedServer.origin}/c${i}`, {}, at));
    const opened = await database();
    const now = new Date(at.getTime() + minute);
    const passes = await Promise.all([
      schedulePulls({ ctx: systemContext(opened, { now }) }),
      schedulePulls({ ctx: systemContext(opened, { now }) }),
    ]);
    const claimed = [...passes[0].feedIds, ...passes[1].feedIds].filter((feedId) => ids.includes(feedId));
    expect(claimed.sort()).toEqual([...ids].sort());
    expect((await pendingPullJobs(ids)).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await feedRow(id)).nextPullAt).toEqual(new Date(now.getTime() + 60 * minute));
  });
  // PostgreSQL only: PGlite runs one session, where locks never contend.
  it.skipIf(!onPostgresRun)("skips a feed another transaction holds rather than wait for it (PostgreSQL)", async () => {
    const { key } = await accountWithKey();
    const at = pastMoment();
    const held = await feedAt(key, `${feedServer.origin}/held`, {}, at);
    const free = await feedAt(key, `${feedServer.origin}/free`, {}, at);
    const opened = await database();
    const now = new Date(at.getTime() + minute);
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = opened.connection.transaction(async (tx) => {
      await tx.execute(sql`select 1 from listing_feeds where id = ${held} for update`);
      locked();
      await released;
    });
    await isLocked;
    try {
      const pass = await schedulePulls({ ctx: systemContext(opened, { now }) });
      expect(pass.feedIds.filter((id) => [held, free].includes(id))).toEqual([free]);
    } finally {
      release();
      await holder;
    }
    const next = await schedulePulls({ ctx: systemContext(opened, { now }) });
    expect(next.feedIds.filter((id) => [held, free].includes(id))).toEqual([held]);
  });
});

describe("a feed failing for a day", () => {
  it("mails its owner once per failing streak, and shows failing_since until a pull works", async () => {
    const { account, key } = await accountWithKey({ account: { locale: "en" } });
    const id = await feedAt(key, `${feedServer.origin}/mail`);
    // Within the key's 30 days: past them the pulls would fail as key_expired.
    const start = new Date(Date.now() + minute);
    const mails = () => smtp.mails.filter((message) => message.to.includes(account.email));
    up = false;

    expect(await pullAt(id, start)).toMatchObject({ outcome: "failed", mailed: false });
    expect(await pullAt(id, new Date(start.getTime() + 23 * hour))).toMatchObject({ mailed: false });
    expect(await pullAt(id, new Date(start.getTime() + 24 * hour + minute))).toMatchObject({ mailed: true });
    expect(await pullAt(id, new Date(start.getTime() + 26 * hour))).toMatchObject({ mailed: false });
    expect(mails()).toHaveLength(1);
    // Soft line breaks of quoted-printable undone, so the addresses read whole.
    const text = mails()[0].raw.replace(/=\n/g, "");
    expect(text).toMatch(/^Subject: Your feed has been failing for 24 hours$/m);
    expect(text).toContain(`${feedServer.origin}/mail`);
    expect(text).toContain("/account/listings/feeds");

    const shown = (await listFeedsService({ ctx: accountContext(await database(), { accountId: account.id, agency: null }), input: {} }))
      .items;
    expect(shown[0]).toMatchObject({ id, last_pull: { outcome: "failed", error_code: "http_error", http_status: 500 } });
    expect(Date.parse(shown[0].failing_since!) - start.getTime()).toBeLessThan(5000);

    up = true;
    const worked = await pullAt(id, new Date(start.getTime() + 27 * hour));
    expect(worked.outcome).toBe("changed");
    expect((await getFeed(key, id)).json!.data.failing_since).toBeNull();

    up = false;
    const again = new Date(start.getTime() + 30 * hour);
    await pullAt(id, again);
    expect(await pullAt(id, new Date(again.getTime() + 25 * hour))).toMatchObject({ mailed: true });
    expect(mails()).toHaveLength(2);
    const [row] = await (await database()).connection.select().from(listingFeeds).where(eq(listingFeeds.id, id));
    expect(row.failingSince!.getTime() - again.getTime()).toBeLessThan(5000);
  });
});
