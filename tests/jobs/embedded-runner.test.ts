import type { ServerResponse } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import { database } from "@/db";
import { jobs, listings, photoLists } from "@/db/schema";
import { enqueue } from "@/lib/infra/jobs/enqueue";
import { retentionJob } from "@/lib/adapters/jobs/retention-job";
import { startJobRunner, stopJobRunner } from "@/lib/adapters/worker/runner";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { ownDatabaseOnPostgres } from "../support/child-database";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { startHttpServer } from "../support/local-http-server";
import { pngPhoto } from "@/tests/media/images";
import { jobRow, rowsNamed } from "./fixtures";
import { restoreEnv, setEnv } from "../support/env";

// The runner claims every due job and delivery of its database: on PostgreSQL, not the run's shared one.
ownDatabaseOnPostgres("test_embedded_runner");

afterEach(async () => {
  await stopJobRunner();
  restoreEnv();
});

describe("embedded job runner process", () => {
  it("polls the jobs table: runs due work and keeps the next cron occurrences queued", async () => {
    setEnv({ JOBS_RUNNER: "on" });
    const { id } = await enqueue(retentionJob, {});
    expect(startJobRunner()).toBe(true);
    expect(startJobRunner()).toBe(true);

    await vi.waitFor(async () => expect(await jobRow(id)).toMatchObject({ status: "done" }), { timeout: 20_000 });
    const cronRows = (await rowsNamed(retentionJob.name)).filter((row) => row.dedupeKey === `cron:${retentionJob.name}`);
    expect(cronRows.filter((row) => row.status === "queued")).toHaveLength(1);
  });

  it("stays off when switched off or when Inngest runs the jobs", () => {
    setEnv({ JOBS_RUNNER: "off" });
    expect(startJobRunner()).toBe(false);
    setEnv({ JOBS_RUNNER: "on", INNGEST_DEV: "1" });
    expect(startJobRunner()).toBe(false);
  });

  it("stopped past its grace, gives back the job still running and the listing's photo lease", async () => {
    setEnv({ JOBS_RUNNER: "on", UNSAFE_ALLOW_LOCAL_URLS: "1" });
    const photo = await pngPhoto(300, 200);
    // The download is answered only once the runner has been stopped: the job is mid-run meanwhile.
    const held: ServerResponse[] = [];
    const photoServer = await startHttpServer((_request, res) => held.push(res));
    const answer = () => held.splice(0).forEach((res) => res.writeHead(200, { "content-type": "image/png" }).end(photo));
    try {
      const { key } = await accountWithKey();
      const { code } = await createListing(key);
      const res = await call(photosRoute.PUT, {
        path: `/listings/${code}/photos`,
        method: "PUT",
        key,
        params: { code },
        body: { photos: [{ url: `${photoServer.origin}/held.png` }] },
      });
      expect(res.status).toBe(202);
      const { connection: db } = await database();
      const [listing] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
      const [job] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.name, processPhotosJob.name), sql`${jobs.payload}->>'listingId' = ${listing.id}`));

      expect(startJobRunner()).toBe(true);
      await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 20_000 });
      expect(await jobRow(job.id)).toMatchObject({ status: "running", attempts: 1 });

      expect(await stopJobRunner({ by: Date.now() })).toBe("late");
      expect(await jobRow(job.id)).toMatchObject({ status: "queued", lockedUntil: null, attempts: 1 });
      const [list] = await db.select({ workerUntil: photoLists.workerUntil }).from(photoLists).where(eq(photoLists.listingId, listing.id));
      expect(list.workerUntil).toBeNull();

      // The run given back still ends in this process (the server would have exited): let it, before the next test.
      answer();
      await vi.waitFor(
        async () => {
          const [now] = await db.select({ processing: listings.mediaProcessing }).from(listings).where(eq(listings.id, listing.id));
          expect(now.processing).toBe(false);
        },
        { timeout: 20_000 },
      );
    } finally {
      answer();
      await photoServer.close();
    }
  });
});
