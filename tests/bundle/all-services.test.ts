import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgBouncer, type PgBouncer } from "@/db/pgbouncer";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { startFakeInngest, type FakeInngest, type FakeInngestRun } from "../support/fake-inngest";
import { startFakeVercelBlob, type FakeVercelBlob } from "../support/fake-vercel-blob";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";
import { jpegPhoto } from "../media/images";
import { bundleEnvironment, keyCountedInRedis, keyOf, prepareBundle, type ReleaseBundle } from "./support";
import { startSmtpServer, type LocalSmtpServer } from "../support/smtp-server";

/**
 * The release bundle with every scale-out service on at once, as a Vercel deployment has them (docs/operations.md,
 * Deploy on Vercel): PostgreSQL, the Upstash limiter (the bridge to the local Redis), Vercel Blob (its
 * fake), SMTP, and the jobs on Inngest (its fake, tests/support/fake-inngest.ts, calling the real
 * `/api/inngest` signed with the signing key) with the server's own runner off, as it is whenever
 * Inngest is configured. Vercel itself is not here: the same build runs as `node server.js`.
 */
let release: ReleaseBundle;
let database: ThrowawayDatabase;
let pooler: PgBouncer;
let sql: postgres.Sql;
let bridge: UpstashBridge;
let blob: FakeVercelBlob;
let inngest: FakeInngest;
let receiver: LocalServer;
let smtp: LocalSmtpServer;
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createThrowawayDatabase(process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", "allservices");
  pooler = await startPgBouncer(database.url);
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  bridge = await startUpstashBridge();
  blob = await startFakeVercelBlob();
  inngest = await startFakeInngest();
  receiver = await startHttpServer((_request, response) => response.writeHead(204).end());
  smtp = await startSmtpServer();
  // Last: the bundle takes a port just found free, which the services above could otherwise be given.
  release = await prepareBundle("all-services");
  environment = {
    ...bundleEnvironment(release, database.url, pooler),
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
    BLOB_READ_WRITE_TOKEN: blob.token,
    VERCEL_BLOB_API_URL: blob.apiUrl,
    SMTP_URL: smtp.url,
    INNGEST_EVENT_KEY: inngest.eventKey,
    INNGEST_SIGNING_KEY: inngest.signingKey,
    // The SDK's own variable: Inngest's event and API addresses, here the fake's.
    INNGEST_BASE_URL: inngest.url,
  };
});

afterAll(async () => {
  await release?.stop();
  await Promise.all([bridge?.close(), blob?.close(), inngest?.close(), receiver?.close(), smtp?.close(), sql?.end()]);
  await pooler?.stop();
  await database?.drop();
  await release?.remove();
});

/** The fake's ended run of that function (`<app id>-<slug>`) whose event satisfies `match`. */
const endedRun = (slug: string, match: (run: FakeInngestRun) => boolean) =>
  release.eventually(`a run of ${slug}`, async () =>
    inngest.runs.find(
      (run) => run.functionId === `listings-platform-${slug}` && match(run) && (run.status === "completed" || run.status === "failed"),
    ),
  );

describe("the release bundle with PostgreSQL, Upstash, Vercel Blob, SMTP and Inngest switched on together", () => {
  let key: string;
  let email: string;
  let webhookSecret: string;
  let code: string;
  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${release.origin}/api/v1${route}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });

  it("migrates with vercel.json's build command, on the direct URL when DATABASE_URL is the pooler's", () => {
    const { buildCommand } = JSON.parse(readFileSync("vercel.json", "utf8")) as { buildCommand: string };
    expect(buildCommand.endsWith(" && next build")).toBe(true);
    // Its first half, as Vercel's build runs it in the repository; DATABASE_URL leads nowhere, so
    // only DATABASE_URL_UNPOOLED can have been migrated.
    const output = execFileSync("sh", ["-c", buildCommand.slice(0, -" && next build".length)], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        APP_ENV: "production",
        DATABASE_URL: "postgres://pooler@127.0.0.1:9/none",
        DATABASE_URL_UNPOOLED: database.url,
      },
      encoding: "utf8",
    });
    expect(JSON.parse(output.slice(output.indexOf("{")))).toMatchObject({ migrated: true, driver: "postgres" });
    expect((release.cli(["db:migrate"], environment).applied as string[]).length).toBe(0);
  });

  it("makes the account, its key and its webhook with the bundle's CLI", () => {
    email = `services-${randomBytes(4).toString("hex")}@example.com`;
    release.cli(
      ["account:create", "--email", email, "--password", "a services password", "--name", "Services Holder", "--locale", "en"],
      environment,
    );
    key = keyOf(release, email, environment);
    webhookSecret = release.cli(
      ["webhook:create", "--email", email, "--url", `${receiver.origin}/hooks`, "--events", "listing.published"],
      environment,
    ).secret as string;
    expect(webhookSecret).toMatch(/^whsec_/);
  });

  it("starts, and syncs its functions to Inngest on PUT /api/inngest, authorised by the signing key", async () => {
    await release.start(environment);
    const sync = await fetch(`${release.origin}/api/inngest`, { method: "PUT" });
    expect(sync.status).toBe(200);
    expect(inngest.functionIds()).toEqual(
      expect.arrayContaining([
        "listings-platform-job-photos-process",
        "listings-platform-job-listings-remind-confirmation",
        "listings-platform-jobs-dispatch-sweep",
        "listings-platform-webhook-delivery",
        "listings-platform-webhook-delivery-sweep",
      ]),
    );
  });

  it("refuses a call to a function that is not signed with the signing key", async () => {
    const forged = await fetch(`${release.origin}/api/inngest?fnId=listings-platform-job-photos-process&stepId=step`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inngest-signature": `t=${Math.floor(Date.now() / 1000)}&s=${"0".repeat(64)}` },
      body: JSON.stringify({ event: { name: "jobs/photos.process", data: { jobId: "job_forged" } }, steps: {}, ctx: { run_id: "forged" } }),
    });
    expect(forged.status).toBe(401);
  });

  it("answers the key, counting its requests in Redis through the Upstash limiter", async () => {
    expect((await api("/ping")).status).toBe(200);
    const counters = await keyCountedInRedis(release, key.split("|")[0], () => api("/ping"));
    expect(counters.length).toBeGreaterThan(0);
  });

  it("processes an uploaded photo in the Inngest function job-photos-process, its WebP stored in Vercel Blob", async () => {
    const created = await api("/listings", { method: "POST", body: JSON.stringify(exampleApartment) });
    expect(created.status).toBe(201);
    code = ((await created.json()) as { data: { code: string } }).data.code;
    const photo = await jpegPhoto();
    const upload = await api("/uploads", { method: "POST", body: JSON.stringify({ content_length: photo.length }) });
    const target = (await upload.json()) as { method: string; url: string; headers: Record<string, string>; key: string };
    expect((await fetch(target.url, { method: target.method, headers: target.headers, body: new Uint8Array(photo) })).ok).toBe(true);
    const set = await api(`/listings/${code}/photos`, { method: "PUT", body: JSON.stringify({ photos: [{ key: target.key }] }) });
    expect(set.status).toBe(202);

    // The enqueue sent `jobs/photos.process` to Inngest, whose run claimed and ran the row: `done` is
    // the outcome of the run that did the work (a row another runner had finished would be `gone`).
    const run = await endedRun("job-photos-process", (candidate) => candidate.event.name === "jobs/photos.process");
    expect(run).toMatchObject({ status: "completed", output: { name: "photos.process", status: "done" } });
    const jobId = (run.event.data as { jobId: string }).jobId;
    expect(await sql`select status from jobs where id = ${jobId}`).toEqual([{ status: "done" }]);

    const { images } = ((await (await api(`/account/listings/${code}`)).json()) as { data: { images: string[] } }).data;
    expect(images).toHaveLength(1);
    expect(images[0].startsWith(`${new URL(blob.apiUrl).origin}/files/`)).toBe(true);
    const derivative = await fetch(images[0]);
    expect(derivative.headers.get("content-type")).toBe("image/webp");
    expect((await derivative.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it("delivers listing.published from its commit through the Inngest function webhook-delivery, signed; the sweep then finds none due", async () => {
    const approved = await api(`/sandbox/listings/${code}/moderation`, { method: "POST", body: JSON.stringify({ decision: "approve" }) });
    expect(approved.status).toBe(200);
    // The server sends the delivery's event at the commit (the fake runs no cron by itself), so the
    // run ends without the sweep; the sweep, run after it, finds nothing left to send.
    const run = await endedRun("webhook-delivery", () => true);
    expect(run).toMatchObject({ status: "completed", output: { status: "succeeded", statusCode: 204 } });
    const sweep = await inngest.runCron("webhook-delivery-sweep");
    expect(sweep).toMatchObject({ status: "completed", output: { sent: 0 } });
    expect(inngest.runs.filter((candidate) => candidate.functionId === "listings-platform-webhook-delivery")).toHaveLength(1);

    const deliveries = receiver.received.filter((request) => request.url === "/hooks");
    expect(deliveries).toHaveLength(1);
    const event = new Webhook(webhookSecret).verify(deliveries[0].body, deliveries[0].headers as Record<string, string>) as {
      type: string;
      data: { code: string };
    };
    expect(event).toMatchObject({ type: "listing.published", data: { code } });
  });

  it("lists the listing's events with GET /events", async () => {
    const { data } = (await (await api("/events")).json()) as { data: { type: string; data: { code?: string } }[] };
    expect(data.filter((event) => event.data.code === code).map((event) => event.type)).toContain("listing.published");
  });

  it("runs the cron job listings.remind-confirmation on Inngest, which mails the owner by SMTP", async () => {
    // 28 of the 30 days gone: the listing is in the days its owner is reminded in.
    await sql`update listings set confirmed_at = now() - interval '28 days' where code = ${code}`;
    const run = await inngest.runCron("job-listings-remind-confirmation");
    expect(run).toMatchObject({
      status: "completed",
      output: { name: "listings.remind-confirmation", status: "done", result: { reminded: 1, mails: 1 } },
    });
    const mail = await release.eventually("the reminder", async () => smtp.mails.find((sent) => sent.to.includes(email)));
    expect(mail.raw.replace(/=\r?\n/g, "")).toContain(code);
  });

  it("left every job to Inngest: each row was run by one of the fake's runs, none by the server's runner", async () => {
    const rows = await sql<{ id: string; name: string; status: string }[]>`select id, name, status from jobs order by created_at`;
    expect(rows.length).toBeGreaterThan(0);
    // `done` is the outcome of the run that claimed and ran the row; a row some other runner had
    // finished would have come back `gone`.
    const ranByInngest = new Set(
      inngest.runs
        .map((run) => run.output as { id?: string; status?: string } | undefined)
        .flatMap((output) => (output?.status === "done" ? [output.id] : [])),
    );
    for (const row of rows)
      expect({ ...row, ranByInngest: ranByInngest.has(row.id) }).toEqual({ ...row, status: "done", ranByInngest: true });
    expect(inngest.runs.filter((run) => run.status === "failed")).toEqual([]);
  });
});
