import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as pauseRoute } from "@/app/api/v1/listings/[code]/pause/route";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { database } from "@/db";
import { eventTypes } from "@/lib/domain/events";
import { logger } from "@/lib/base/logger";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, validApartment } from "../support/listings";

const url = process.env.DATABASE_URL;
if (!url) console.warn("Fault tests on real PostgreSQL skipped: DATABASE_URL is not set (npm run test:pg runs them)");

/**
 * The route handlers' pool is the process-wide `database()`, opened lazily by postgres.js, which
 * names its sessions after `PGAPPNAME`. Every test file runs in its own process on the same
 * database, so this name (pid and a random part) lets the test end this file's sessions only.
 */
const appName = `listings_faults_${process.pid}_${randomBytes(3).toString("hex")}`;
if (url) process.env.PGAPPNAME = appName;

type Answer = Awaited<ReturnType<typeof call>>;

describe.skipIf(!url)("PostgreSQL ends the server's connections while writes run (skipped: DATABASE_URL is not set)", () => {
  let admin: postgres.Sql;

  beforeAll(() => {
    admin = postgres(url!, { max: 1, onnotice: () => {}, connection: { application_name: `${appName}_admin` } });
  });

  afterAll(async () => {
    await admin?.end({ timeout: 5 });
  });

  const sessions = async () =>
    admin<{ pid: number; state: string | null }[]>`
      select pid, state from pg_stat_activity where application_name = ${appName} and datname = current_database()`;

  /** Waits until one of the pool's sessions is running a statement, then ends every session of the pool. */
  async function terminateWhenBusy(until: Promise<unknown>): Promise<number[]> {
    let settled = false;
    void until.finally(() => (settled = true));
    while (!settled) {
      const busy = (await sessions()).some((session) => session.state !== "idle");
      if (busy) {
        // In the select list, not the WHERE clause: PostgreSQL may evaluate WHERE conditions in any
        // order, and pg_terminate_backend must only ever see this file's sessions.
        const ended = await admin<{ pid: number; ended: boolean }[]>`
          select pid, pg_terminate_backend(pid) as ended from pg_stat_activity
          where application_name = ${appName} and datname = current_database()`;
        return ended.map((session) => session.pid);
      }
    }
    return [];
  }

  /** A terminated backend leaves pg_stat_activity when it has exited, after closing its socket. */
  async function sessionsGone(pids: number[]): Promise<void> {
    while ((await sessions()).some((session) => pids.includes(session.pid))) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it("answers 2xx or 503 with Retry-After to every request, writes each listing with its event or not at all, and recovers by itself", async () => {
    const { key, account } = await accountWithKey();
    const pool = await database();
    // A 500 is opaque to the client; the server log says which error was not recognised.
    const unrecognised = vi.spyOn(logger, "error");
    const listings = [];
    for (let i = 0; i < 24; i++) listings.push(await activeListing(key));

    const requests: Promise<Answer>[] = [
      ...listings.map((listing) =>
        call(pauseRoute, { path: `/listings/${listing.code}/pause`, method: "POST", key, params: { code: listing.code } }),
      ),
      ...Array.from({ length: 16 }, () => call(createRoute, { path: "/listings", method: "POST", key, body: validApartment() })),
    ];
    const all = Promise.all(requests);
    const ended = await terminateWhenBusy(all);
    expect(ended.length).toBeGreaterThan(0);
    const answers = await all;

    const unhandled = unrecognised.mock.calls
      .filter(([message]) => message === "unhandled error")
      .map(([, fields]) => {
        const error = fields?.error as Error & { code?: string; cause?: Error & { code?: string } };
        return { message: error?.message, code: error?.code, cause: error?.cause?.message, causeCode: error?.cause?.code };
      });
    expect(unhandled).toEqual([]);
    for (const answer of answers) {
      expect([200, 201, 503]).toContain(answer.status);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
      if (answer.status !== 503) continue;
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.json).toMatchObject({ status: 503, code: "service_unavailable" });
      expect(answer.json?.detail).toContain(answer.headers.get("retry-after"));
    }
    // The sessions ended while requests were running, so some of them must have seen it.
    expect(answers.some((answer) => answer.status === 503)).toBe(true);

    const rows = await admin<{ code: string; status: string }[]>`
      select code, status from listings where account_id = ${account.id} and deleted_at is null`;
    const pausedEvents = await admin<{ code: string }[]>`
      select data->>'code' as code from events where account_id = ${account.id} and type = ${eventTypes.paused}`;
    const statusOf = new Map(rows.map((row) => [row.code, row.status]));
    const pausedCodes = pausedEvents.map((event) => event.code);
    // Each pause commits its status and its event together, or neither.
    for (const listing of listings) {
      expect({ code: listing.code, paused: statusOf.get(listing.code) === "paused" }).toEqual({
        code: listing.code,
        paused: pausedCodes.includes(listing.code),
      });
    }
    expect(new Set(pausedCodes).size).toBe(pausedCodes.length);
    for (const answer of answers) {
      if (answer.status === 200) expect(statusOf.get(answer.json!.data.code)).toBe("paused");
      if (answer.status === 201) expect(statusOf.get(answer.json!.data.code)).toBe("pending");
    }

    // Same pool, nothing reopened: once the ended sessions are gone, every request succeeds.
    await sessionsGone(ended);
    expect(await database()).toBe(pool);
    const stillActive = listings.filter((listing) => statusOf.get(listing.code) === "active");
    for (const listing of stillActive) {
      const again = await call(pauseRoute, {
        path: `/listings/${listing.code}/pause`,
        method: "POST",
        key,
        params: { code: listing.code },
      });
      expect(again.status).toBe(200);
    }
    const created = await call(createRoute, { path: "/listings", method: "POST", key, body: validApartment() });
    expect(created.status).toBe(201);
    unrecognised.mockRestore();
  });
});
