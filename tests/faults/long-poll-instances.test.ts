import { afterAll, describe, expect, it } from "vitest";
import { postgresChildDatabase } from "../support/child-database";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { startApiServer, type ApiServerProcess } from "./support/api-server-process";
import { onPostgresRun } from "../support/engine";

/**
 * `GET /events?wait=` across instances: two real server processes (`api-server.ts`) on one PostgreSQL
 * database, each with its own pool and its own LISTEN connection. A request waiting in one is
 * answered with the event a listing change through the other commits: the event's transaction
 * notifies `events`, and PostgreSQL delivers that to every listening process. Each process says (over
 * IPC) when the request waits, so the change is made only then. PostgreSQL only (two processes cannot
 * share a PGlite folder): `npm run test:pg` runs it.
 */

const target = postgresChildDatabase("test_long_poll");
const servers: ApiServerProcess[] = [];

afterAll(async () => {
  for (const server of servers) server.process.kill("SIGKILL");
  if (onPostgresRun) await target.dispose();
});

interface Page {
  data: { id: string; type: string; data: { code: string } }[];
  meta: { next: string | null };
}

describe.skipIf(!onPostgresRun)(
  `long polling across two server processes${onPostgresRun ? "" : " (skipped: npm run test:pg runs it)"}`,
  () => {
    it("wakes a request waiting in one process with an event committed through the other, both ways", async () => {
      await target.prepare();
      const { key, keyId } = await accountWithKey();
      const listing = await activeListing(key);
      await target.letGo();
      const [first, second] = await Promise.all([
        startApiServer(target, { JOBS_RUNNER: "off" }),
        startApiServer(target, { JOBS_RUNNER: "off" }),
      ]);
      servers.push(first, second);

      const request = (server: ApiServerProcess, path: string, method = "GET") =>
        fetch(`${server.origin}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } });
      const lastEventId = async () => {
        let after: string | undefined;
        for (;;) {
          const page = (await (await request(first, `/events?limit=500${after ? `&after=${after}` : ""}`)).json()) as Page;
          after = page.data.at(-1)?.id ?? after;
          if (page.meta.next === null) return after!;
        }
      };

      for (const [waitsIn, commitsIn, action, type] of [
        [first, second, "pause", "listing.paused"],
        [second, first, "resume", "listing.reactivated"],
      ] as const) {
        const after = await lastEventId();
        const waiting = request(waitsIn, `/events?after=${after}&wait=25`);
        await expect.poll(() => waitsIn.waiting(keyId), { timeout: 20_000, interval: 20 }).toBe(1);

        expect((await request(commitsIn, `/listings/${listing.code}/${action}`, "POST")).status).toBe(200);
        const answer = await waiting;
        expect(answer.status).toBe(200);
        const page = (await answer.json()) as Page;
        expect(page.data.map((event) => [event.type, event.data.code])).toEqual([[type, listing.code]]);
        expect(page.meta.next).toBeNull();
        expect(await waitsIn.waiting(keyId)).toBe(0);
      }

      for (const server of servers) server.process.kill("SIGTERM");
      expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0]);
    }, 120_000);
  },
);
