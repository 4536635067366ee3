import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import { closeDatabase, configureDatabase, database } from "@/db";
import { listings, photos } from "@/db/schema";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { databaseSettings } from "@/lib/base/config";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { pngPhoto, webpPhoto } from "@/tests/media/images";
import { reachEnv, reachSettings } from "../support/run-database";
import { restoreEnv, setEnv } from "../support/env";
import { jobWorkers } from "./support/job-worker-process";
import { onPostgresRun } from "../support/engine";

/**
 * The server killed (SIGKILL) while it processes a photo list, then restarted: the list completes.
 * The "server" is `job-worker.ts` (for `photos.process`), a child process running the embedded runner's passes over the
 * photo job on a throwaway PostgreSQL database; the photos come from a local HTTP server in this
 * process, which holds the second photo's answer until the child has been killed. The restarted
 * child's clock runs 11 minutes ahead, past the dead one's job claim (10 minutes) and listing lease
 * (5 minutes). PostgreSQL only (two processes cannot share a PGlite folder): `npm run test:pg` runs it.
 */

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const workers = jobWorkers("photos.process");

if (!onPostgresRun) console.info("Photo kill test skipped: it runs on PostgreSQL, with npm run test:pg");

const fileSettings = () => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE });

let throwaway: ThrowawayDatabase | undefined;
let server: LocalServer;
let blobDir: string;
let holdSlow = true;
let slowAsked: () => void = () => {};
const slowRequested = new Promise<void>((resolve) => (slowAsked = resolve));

beforeAll(async () => {
  if (!onPostgresRun) return;
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  throwaway = await createThrowawayDatabase(adminUrl, "test_photo_kill");
  await closeDatabase();
  configureDatabase(() => ({ ...reachSettings(throwaway!.url), dataDir: "memory://" }));
  blobDir = mkdtempSync(path.join(os.tmpdir(), "photo-kill-blobs-"));
  const files = new Map([
    ["/first.png", await pngPhoto(300, 200)],
    ["/second.webp", await webpPhoto(200, 300)],
  ]);
  server = await startHttpServer((request, res) => {
    const send = () => res.writeHead(200, { "content-type": "application/octet-stream" }).end(files.get(request.url));
    if (request.url === "/second.webp" && holdSlow) {
      slowAsked();
      // Answered never while the first child lives: it is killed mid-download.
      return;
    }
    send();
  });
});

afterAll(async () => {
  workers.killAll();
  if (!onPostgresRun) return;
  restoreEnv();
  await server.close();
  await closeDatabase();
  configureDatabase(fileSettings);
  await throwaway?.drop();
  rmSync(blobDir, { recursive: true, force: true });
});

async function startWorker(offsetMs: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...reachEnv(throwaway!.url),
    BLOB_DIR: blobDir,
    UNSAFE_ALLOW_LOCAL_URLS: "1",
    WORKER_OFFSET_MS: String(offsetMs),
  };
  delete env.PGLITE_TEMPLATE;
  delete env.BLOB_READ_WRITE_TOKEN;
  return workers.start(env);
}

describe.skipIf(!onPostgresRun)("photo processing killed and restarted (PostgreSQL)", () => {
  it("completes the list after the server is killed mid-download and started again", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const list = [{ url: `${server.origin}/first.png` }, { url: `${server.origin}/second.webp` }];
    const res = await call(photosRoute.PUT, {
      path: `/listings/${code}/photos`,
      method: "PUT",
      key,
      params: { code },
      body: { photos: list },
    });
    expect(res.status).toBe(202);

    const first = await startWorker(0);
    await slowRequested;
    await workers.killed(first);
    const db = (await database()).connection;
    const [listing] = await db.select().from(listings).where(eq(listings.code, code));
    expect(listing.mediaProcessing).toBe(true);

    holdSlow = false;
    const second = await startWorker(11 * 60_000);
    const deadline = Date.now() + 60_000;
    let done = false;
    while (!done && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [now] = await db.select({ processing: listings.mediaProcessing }).from(listings).where(eq(listings.code, code));
      done = !now.processing;
    }
    await workers.killed(second);
    expect(done).toBe(true);
    const rows = await db.select().from(photos).where(eq(photos.listingId, listing.id)).orderBy(asc(photos.position));
    expect(rows.map((row) => [row.sourceUrl, row.state])).toEqual([
      [list[0].url, "done"],
      [list[1].url, "done"],
    ]);
    const [after] = await db.select({ images: listings.images }).from(listings).where(eq(listings.code, code));
    expect(after.images).toEqual(rows.map((row) => row.derivatives!.webp_1600.url));
  });
});
