import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/events/route";
import { accountWithKey, call } from "../support/fixtures";
import { recordEvents } from "./support";

describe("GET /events – access", () => {
  it("answers 401 without a key", async () => {
    const res = await call(GET, { path: "/events" });
    expect(res.status).toBe(401);
    expect(res.json?.code).toBe("unauthenticated");
  });

  it("answers 403 missing_ability to a key without listings:read", async () => {
    const { key } = await accountWithKey({ permissions: ["listings:write", "media:write"] });
    const res = await call(GET, { path: "/events", key });
    expect(res.status).toBe(403);
    expect(res.json?.code).toBe("missing_ability");
  });

  it("never lists another account's events, also when paging after one of its ids", async () => {
    const mine = await accountWithKey();
    const other = await accountWithKey();
    const [a] = await recordEvents(mine.account.id, 1);
    const [x] = await recordEvents(other.account.id, 1);
    const [b] = await recordEvents(mine.account.id, 1);
    await recordEvents(other.account.id, 1);

    const all = await call(GET, { path: "/events", key: mine.key });
    expect(all.json?.data.map((e: { id: string }) => e.id)).toEqual([a.id, b.id]);

    // Another account's id is only a position in the sequence.
    const afterOthers = await call(GET, { path: `/events?after=${x.id}`, key: mine.key });
    expect(afterOthers.json).toEqual({ data: [b], meta: { next: null } });
  });
});
