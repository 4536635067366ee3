import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/events/route";
import { accountWithKey, call } from "../support/fixtures";
import { recordEvents } from "./support";

const getEvents = (key: string, query = "") => call(GET, { path: `/events${query}`, key });

describe("GET /events", () => {
  it("lists the account's events oldest first in the webhook body form", async () => {
    const { key, account } = await accountWithKey({ permissions: ["listings:read"] });
    const now = new Date("2026-11-20T10:00:00.000Z");
    const recorded = await recordEvents(account.id, 3, now);
    const res = await getEvents(key);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: recorded, meta: { next: null } });
    expect(res.json?.data[0]).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{10}$/),
      type: "listing.paused",
      created_at: now.toISOString(),
      data: { n: 0 },
    });
  });

  it("pages with after = meta.next until next is null", async () => {
    const { key, account } = await accountWithKey();
    const recorded = await recordEvents(account.id, 5);
    const ids = recorded.map((event) => event.id);

    const first = await getEvents(key, "?limit=2");
    expect(first.json?.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.json?.meta.next).toBe(ids[1]);

    const second = await getEvents(key, `?limit=2&after=${first.json?.meta.next}`);
    expect(second.json?.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(2, 4));
    expect(second.json?.meta.next).toBe(ids[3]);

    const last = await getEvents(key, `?limit=2&after=${second.json?.meta.next}`);
    expect(last.json?.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(4));
    expect(last.json?.meta.next).toBeNull();
  });

  it("answers next null when the page ends exactly at the last event, and an empty page after it", async () => {
    const { key, account } = await accountWithKey();
    const recorded = await recordEvents(account.id, 2);
    const full = await getEvents(key, "?limit=2");
    expect(full.json?.data).toHaveLength(2);
    expect(full.json?.meta.next).toBeNull();
    const after = await getEvents(key, `?after=${recorded[1].id}`);
    expect(after.json).toEqual({ data: [], meta: { next: null } });
  });

  it("returns 100 events by default and accepts the bounds 1 and 500", async () => {
    const { key, account } = await accountWithKey();
    await recordEvents(account.id, 101);
    const byDefault = await getEvents(key);
    expect(byDefault.json?.data).toHaveLength(100);
    expect(byDefault.json?.meta.next).toBe(byDefault.json?.data[99].id);
    expect((await getEvents(key, "?limit=1")).json?.data).toHaveLength(1);
    const max = await getEvents(key, "?limit=500");
    expect(max.json?.data).toHaveLength(101);
    expect(max.json?.meta.next).toBeNull();
  });

  it("answers an empty page for an account without events", async () => {
    const { key } = await accountWithKey();
    expect((await getEvents(key)).json).toEqual({ data: [], meta: { next: null } });
  });
});
