import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import { database } from "@/db";
import { listings, photos } from "@/db/schema";
import { postgresChildDatabase } from "../support/child-database";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { jpegPhoto, pngPhoto } from "@/tests/media/images";
import { restoreEnv, setEnv } from "../support/env";
import { onPostgresRun } from "../support/engine";

/**
 * `npm run worker` as a deployment runs it: a real process (scripts/worker.ts under tsx) on a
 * throwaway PostgreSQL database, with the web instances' `JOBS_RUNNER=off` in its environment. It
 * takes up a photo list this process queued through the API, publishes it, and on SIGTERM exits 0.
 * PostgreSQL only (two processes cannot share a PGlite folder): `npm run test:pg` runs it.
 */

const workerScript = path.resolve("scripts/worker.ts");

if (!onPostgresRun) console.info("Worker process test skipped: it runs on PostgreSQL, with npm run test:pg");

const childDatabase = postgresChildDatabase("test_worker_process");
let server: LocalServer;
let blobDir: string;
let worker: ChildProcess | undefined;

beforeAll(async () => {
  if (!onPostgresRun) return;
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  await childDatabase.prepare();
  blobDir = mkdtempSync(path.join(os.tmpdir(), "worker-process-blobs-"));
  const files = new Map([
    ["/one.jpg", await jpegPhoto({ width: 900, height: 600, orientation: 6 })],
    ["/two.png", await pngPhoto(300, 200)],
  ]);
  server = await startHttpServer((request, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(files.get(request.url ?? ""));
  });
});

afterAll(async () => {
  worker?.kill("SIGKILL");
  if (!onPostgresRun) return;
  restoreEnv();
  await server.close();
  await childDatabase.dispose();
  rmSync(blobDir, { recursive: true, force: true });
});

describe.skipIf(!onPostgresRun)("npm run worker (PostgreSQL)", () => {
  it("processes a queued photo list without the web server, and exits 0 on SIGTERM", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const list = [{ url: `${server.origin}/one.jpg` }, { url: `${server.origin}/two.png` }];
    const res = await call(photosRoute.PUT, {
      path: `/listings/${code}/photos`,
      method: "PUT",
      key,
      params: { code },
      body: { photos: list },
    });
    expect(res.status).toBe(202);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...childDatabase.childEnv(),
      BLOB_DIR: blobDir,
      UNSAFE_ALLOW_LOCAL_URLS: "1",
      JOBS_RUNNER: "off",
      LOG_LEVEL: "info",
    };
    delete env.PGLITE_TEMPLATE;
    delete env.BLOB_READ_WRITE_TOKEN;
    const child = spawn(process.execPath, ["--import", "tsx", workerScript], { env, stdio: ["ignore", "inherit", "pipe"] });
    worker = child;
    // Its log (JSON lines on stderr).
    let log = "";
    child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));

    const db = (await database()).connection;
    // A bound on the wait, not a measure of it: the worker polls its jobs every second.
    const deadline = Date.now() + 60_000;
    let processing = true;
    while (processing && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      [{ processing }] = await db.select({ processing: listings.mediaProcessing }).from(listings).where(eq(listings.code, code));
    }
    expect(processing).toBe(false);
    const [listing] = await db.select().from(listings).where(eq(listings.code, code));
    const rows = await db.select().from(photos).where(eq(photos.listingId, listing.id)).orderBy(asc(photos.position));
    expect(rows.map((row) => [row.sourceUrl, row.state, row.width, row.height])).toEqual([
      [list[0].url, "done", 600, 900],
      [list[1].url, "done", 300, 200],
    ]);
    expect(listing.images).toEqual(rows.map((row) => row.derivatives!.webp_1600.url));

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(log).toContain("embedded job runner started");
    expect(log).toContain("photo renderer started");
    expect(log).toContain("shut down");
  });
});
