import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/events/route";
import { database } from "@/db";
import { config } from "@/lib/base/config";
import { eventsChannel, eventWaiters, maxWaitingPerKey } from "@/lib/domain/events";
import { createKey } from "@/lib/domain/keys/create-key";
import { rateRules } from "@/lib/infra/rate-limit";
import { withFrozenClock } from "../support/clock";
import { accountWithKey, call, createdKeys, operatorCtx } from "../support/fixtures";
import { openEventsRequest, recordEvents, startApiHttpServer } from "./support";

/**
 * `GET /events?wait=` (long polling) through the route handler, on the run's database: PGlite under
 * `npm test` (the NOTIFY reaches the listener in process), PostgreSQL under `npm run test:pg` (through
 * the process's LISTEN connection). A test knows a request is waiting when the process's waiters say
 * its key holds a place; the other process's wake-up is tests/faults/long-poll-instances.test.ts's.
 */
const getEvents = (key: string, query = "") => call(GET, { path: `/events${query}`, key });

const waitingOf = (keyId: string) => eventWaiters().waiting(`api:${keyId}`);

/** Resolves once `count` requests of the key wait (they have read, found nothing and hold a place). */
const untilWaiting = (keyId: string, count: number) => expect.poll(() => waitingOf(keyId), { timeout: 10_000, interval: 10 }).toBe(count);

const emptyPage = { data: [], meta: { next: null } };

describe("GET /events?wait= (long polling)", () => {
  let server: Awaited<ReturnType<typeof startApiHttpServer>>;
  beforeAll(async () => (server = await startApiHttpServer()));
  afterAll(() => server?.close());

  it("gives the waiting place back at once when the client goes away mid-wait, so the key can wait again right away", async () => {
    const { account, key, keyId } = await accountWithKey();
    const [seen] = await recordEvents(account.id, 1);
    const query = `?after=${seen.id}&wait=30`;
    const gone = [openEventsRequest(server.origin, key, query), openEventsRequest(server.origin, key, query)];
    await untilWaiting(keyId, maxWaitingPerKey);

    for (const request of gone) request.hangUp();
    // Held to their deadline, the places would refuse the key's next waits with 429 for 30 s.
    await expect.poll(() => waitingOf(keyId), { timeout: 5_000, interval: 10 }).toBe(0);
    const waiting = [getEvents(key, query), getEvents(key, query)];
    await untilWaiting(keyId, maxWaitingPerKey);
    const [committed] = await recordEvents(account.id, 1);
    for (const res of await Promise.all(waiting)) {
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ data: [committed], meta: { next: null } });
    }
  });

  it("answers a waiting request with the event committed while it waits", async () => {
    const { account, key, keyId } = await accountWithKey();
    const [seen] = await recordEvents(account.id, 1);
    const waiting = getEvents(key, `?after=${seen.id}&wait=20`);
    await untilWaiting(keyId, 1);

    const [committed] = await recordEvents(account.id, 1);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [committed], meta: { next: null } });
    expect(waitingOf(keyId)).toBe(0);
  });

  it("answers at once, as without wait, when events newer than after are there", async () => {
    const { account, key, keyId } = await accountWithKey();
    await recordEvents(account.id, 3);
    const waited = await getEvents(key, "?limit=2&wait=20");
    expect(waited.json).toEqual((await getEvents(key, "?limit=2")).json);
    expect(waited.json?.data).toHaveLength(2);
    expect(waitingOf(keyId)).toBe(0);
  });

  it("answers the same empty page as without wait once its seconds have passed without an event", async () => {
    const { account, key, keyId } = await accountWithKey();
    const [seen] = await recordEvents(account.id, 1);
    const today = await getEvents(key, `?after=${seen.id}`);
    const waited = await getEvents(key, `?after=${seen.id}&wait=1`);
    expect(waited.status).toBe(200);
    expect(waited.json).toEqual(today.json);
    expect(waited.json).toEqual(emptyPage);
    expect(waitingOf(keyId)).toBe(0);
  });

  it("waits from the start of the stream when there is no event at all, and answers with the first one", async () => {
    const { account, key, keyId } = await accountWithKey();
    const waiting = getEvents(key, "?wait=20");
    await untilWaiting(keyId, 1);
    const [first] = await recordEvents(account.id, 1);
    expect((await waiting).json).toEqual({ data: [first], meta: { next: null } });
  });

  it("refuses a third waiting request of a key with 429 too_many_waiting_requests and Retry-After; other keys and requests that need not wait go on", async () => {
    const { account, key, keyId } = await accountWithKey();
    const [seen] = await recordEvents(account.id, 1);
    const query = `?after=${seen.id}&wait=20`;
    const waiting = [getEvents(key, query), getEvents(key, query)];
    await untilWaiting(keyId, maxWaitingPerKey);

    const third = await getEvents(key, query);
    expect(third.status).toBe(429);
    expect(third.headers.get("content-type")).toBe("application/problem+json");
    expect(third.json).toMatchObject({ status: 429, code: "too_many_waiting_requests" });
    expect(third.json?.detail).toMatch(/\b2\b/);
    const retryAfter = Number(third.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20).toBe(true);

    // The same key without wait, and with wait when events are there, is answered as usual.
    expect((await getEvents(key, `?after=${seen.id}`)).json).toEqual(emptyPage);
    expect((await getEvents(key, "?wait=20")).json?.data).toEqual([seen]);
    // Another key of the same account has places of its own.
    const other = await createKey({
      ctx: await operatorCtx(),
      input: { accountId: account.id, name: "second key", permissions: ["listings:read"], days: 30 },
    });
    createdKeys.push(other.key);
    const otherWaiting = getEvents(other.key, query);
    await untilWaiting(other.id, 1);

    const [committed] = await recordEvents(account.id, 1);
    for (const res of await Promise.all([...waiting, otherWaiting])) expect(res.json).toEqual({ data: [committed], meta: { next: null } });
    expect(waitingOf(keyId)).toBe(0);
  });

  it("is not answered by another account's event: that account's commit notifies that account only", async () => {
    const mine = await accountWithKey();
    const theirs = await accountWithKey();
    const notified: string[] = [];
    const unlisten = await (await database()).listen(eventsChannel, (payload) => notified.push(payload));
    try {
      const myWait = getEvents(mine.key, "?wait=3");
      const theirWait = getEvents(theirs.key, "?wait=20");
      await untilWaiting(mine.keyId, 1);
      await untilWaiting(theirs.keyId, 1);

      const [theirEvent] = await recordEvents(theirs.account.id, 1);
      expect((await theirWait).json).toEqual({ data: [theirEvent], meta: { next: null } });
      await expect.poll(() => notified).toContain(theirs.account.id);
      expect(notified).not.toContain(mine.account.id);
      // Theirs is answered; mine still waits, and ends at its time-out with the empty page.
      expect(waitingOf(mine.keyId)).toBe(1);
      expect((await myWait).json).toEqual(emptyPage);
    } finally {
      await unlisten();
    }
  });

  it("counts a waiting request once against the rate limit, whether it is woken or times out", async () => {
    const { account, key, keyId } = await accountWithKey();
    const { limit } = rateRules.key;
    await withFrozenClock(async () => {
      const waiting = getEvents(key, "?wait=20");
      await untilWaiting(keyId, 1);
      const [first] = await recordEvents(account.id, 1);
      const woken = await waiting;
      expect(woken.json?.data).toEqual([first]);
      expect(woken.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(woken.headers.get("x-ratelimit-remaining")).toBe(String(limit - 1));
      const timedOut = await getEvents(key, `?after=${first.id}&wait=1`);
      expect(timedOut.json).toEqual(emptyPage);
      expect(timedOut.headers.get("x-ratelimit-remaining")).toBe(String(limit - 2));
      expect((await getEvents(key)).headers.get("x-ratelimit-remaining")).toBe(String(limit - 3));
    });
  });

  it("holds no database connection while it waits: more requests wait than the pool has connections, and others are answered meanwhile", async () => {
    const keys = [];
    for (let i = 0; i < 6; i++) keys.push(await accountWithKey());
    const waits = keys.flatMap(({ key }) => [getEvents(key, "?wait=20"), getEvents(key, "?wait=20")]);
    for (const { keyId } of keys) await untilWaiting(keyId, 2);
    expect(waits.length).toBeGreaterThan(config().DATABASE_POOL_SIZE);

    const reader = await accountWithKey();
    await recordEvents(reader.account.id, 1);
    expect((await getEvents(reader.key)).json?.data).toHaveLength(1);
    for (const { keyId } of keys) expect(waitingOf(keyId)).toBe(2);

    for (const { account } of keys) await recordEvents(account.id, 1);
    for (const res of await Promise.all(waits)) expect(res.json?.data).toHaveLength(1);
  });
});
