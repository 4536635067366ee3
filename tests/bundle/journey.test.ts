import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgBouncer, type PgBouncer } from "@/db/pgbouncer";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { startFakeVercelBlob, type FakeVercelBlob } from "../support/fake-vercel-blob";
import { startHttpServer, type LocalServer } from "../support/local-http-server";
import { startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";
import { jpegPhoto } from "../media/images";
import { bundleEnvironment, keyCountedInRedis, keyOf as keyMadeBy, prepareBundle, type ReleaseBundle } from "./support";
import { startSmtpServer, type LocalSmtpServer } from "../support/smtp-server";

/**
 * The release bundle as it is deployed (docs/operations.md, Deploy (self-hosted)): `.next/standalone` copied to an
 * empty folder outside the repository (no node_modules of ours above it), run by Node 24 with the
 * scale-out services this machine can offer: PostgreSQL, the Upstash limiter (through the bridge to
 * the local Redis), Vercel Blob (its local fake) and SMTP (a local server), the jobs on the server's
 * own runner (all-services.test.ts runs them on Inngest instead, through its fake).
 * The bundle's CLI migrates the database and makes the account, its key and its webhook; the server
 * is then driven over HTTP as an integrator would.
 */
const committedMigrations = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")).entries.length as number;

let release: ReleaseBundle;
let folder: string;
let node24: string;
let database: ThrowawayDatabase;
let pooler: PgBouncer;
let bridge: UpstashBridge;
let blob: FakeVercelBlob;
let receiver: LocalServer;
let smtp: LocalSmtpServer;
let origin: string;
let environment: NodeJS.ProcessEnv;

const cli = (argv: string[], env = environment) => release.cli(argv, env);
const keyOf = (email: string, env = environment) => keyMadeBy(release, email, env);
const startServer = (env = environment) => release.start(env);
const stopServer = () => release.stop();
const eventually = <T>(what: string, read: () => Promise<T | undefined>) => release.eventually(what, read);

/** The command lines of the machine's processes, from /proc. */
function commandLines(): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        return [readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ")];
      } catch {
        // Gone meanwhile.
        return [];
      }
    });
}

beforeAll(async () => {
  database = await createThrowawayDatabase(process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", "bundle");
  pooler = await startPgBouncer(database.url);
  bridge = await startUpstashBridge();
  blob = await startFakeVercelBlob();
  receiver = await startHttpServer((_request, response) => response.writeHead(204).end());
  smtp = await startSmtpServer();
  // Last: the bundle takes a port just found free, which the services above could otherwise be given.
  release = await prepareBundle("bundle");
  ({ folder, node24, origin } = release);
  environment = {
    ...bundleEnvironment(release, database.url, pooler),
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
    BLOB_READ_WRITE_TOKEN: blob.token,
    VERCEL_BLOB_API_URL: blob.apiUrl,
    SMTP_URL: smtp.url,
  };
});

afterAll(async () => {
  await release?.stop();
  await Promise.all([bridge?.close(), blob?.close(), receiver?.close(), smtp?.close()]);
  await pooler?.stop();
  await database?.drop();
  await release?.remove();
});

describe("the release bundle, copied out of the repository and run on Node 24", () => {
  let key: string;
  let email: string;
  let webhookSecret: string;
  let code: string;
  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${origin}/api/v1${route}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });

  it("has no node_modules of the repository within reach", () => {
    for (let dir = folder; dir !== path.dirname(dir); dir = path.dirname(dir))
      if (dir !== folder) expect(existsSync(path.join(dir, "node_modules")), `${dir}/node_modules`).toBe(false);
    expect(execFileSync(node24, ["--version"], { encoding: "utf8" })).toMatch(/^v24\./);
  });

  it("migrates the empty database with `node cli.mjs db:migrate`, then finds nothing pending", () => {
    expect(cli(["db:migrate"])).toMatchObject({ migrated: true, driver: "postgres", migrations: committedMigrations });
    expect((cli(["db:migrate"]).applied as string[]).length).toBe(0);
    expect(committedMigrations).toBeGreaterThan(0);
  });

  it("makes an account, its sandbox key and its webhook with the bundle's CLI", () => {
    email = `bundle-${randomBytes(4).toString("hex")}@example.com`;
    cli(["account:create", "--email", email, "--password", "a bundle's password", "--name", "Bundle Holder", "--locale", "en"]);
    key = keyOf(email);
    expect(key).toMatch(/\|svc_test_/);
    const webhook = cli(["webhook:create", "--email", email, "--url", `${receiver.origin}/hooks`, "--events", "listing.published"]);
    webhookSecret = webhook.secret as string;
    expect(webhookSecret).toMatch(/^whsec_/);
  });

  it("starts with `node server.js` and serves the sign-in page and its static files", async () => {
    await startServer();
    const page = await fetch(`${origin}/login`, { headers: { "accept-language": "en" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('type="password"');
    const script = html.match(/\/_next\/static\/[^"']+\.js/)?.[0];
    expect(script).toBeDefined();
    const asset = await fetch(`${origin}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
  });

  it("signs up through the sign-up form posted as by a browser without JavaScript, and mails the confirmation link by SMTP", async () => {
    const page = await (await fetch(`${origin}/signup`, { headers: { "accept-language": "en" } })).text();
    // The form's hidden fields name its server action; a browser without JavaScript posts them with the fields.
    const form = page.match(/<form class="stack"[\s\S]*?<\/form>/)?.[0] ?? "";
    const body = new FormData();
    for (const [, name, value = ""] of form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/>/g))
      body.append(name, value.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    expect([...body.keys()]).toContain("$ACTION_KEY");
    const newcomer = `signup-${randomBytes(4).toString("hex")}@example.com`;
    body.append("name", "Bundle Newcomer");
    body.append("email", newcomer);
    body.append("password", "a newcomer's password");
    const signedUp = await fetch(`${origin}/signup`, { method: "POST", body, headers: { "accept-language": "en", origin } });
    expect(signedUp.status).toBe(200);
    expect(await signedUp.text()).toContain(newcomer);

    const mail = await eventually("the confirmation mail", async () => smtp.mails.find((sent) => sent.to.includes(newcomer)));
    // Quoted-printable: long lines are folded with a trailing "=" and "=" itself is written "=3D".
    const text = mail.raw.replace(/=\r?\n/g, "").replaceAll("=3D", "=");
    const link = text.match(new RegExp(`${origin}/confirm-email\\?token=[\\w-]+`))?.[0];
    expect(link).toBeDefined();
    expect((await fetch(link!)).status).toBe(200);
  });

  it("answers the key, counting its requests in Redis through the Upstash limiter", async () => {
    const ping = await api("/ping");
    expect(ping.status).toBe(200);
    expect(ping.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    const counters = await keyCountedInRedis(release, key.split("|")[0], () => api("/ping"));
    expect(counters.length).toBeGreaterThan(0);
  });

  it("creates a listing", async () => {
    const created = await api("/listings", { method: "POST", body: JSON.stringify(exampleApartment) });
    expect(created.status).toBe(201);
    code = ((await created.json()) as { data: { code: string } }).data.code;
    expect(code).toMatch(/^\w{8}$/);
  });

  it("takes a photo by upload, processes it with sharp and stores its derivatives in Vercel Blob", async () => {
    const photo = await jpegPhoto();
    const upload = await api("/uploads", { method: "POST", body: JSON.stringify({ content_length: photo.length }) });
    expect(upload.status).toBe(201);
    const target = (await upload.json()) as { method: string; url: string; headers: Record<string, string>; key: string };
    const put = await fetch(target.url, { method: target.method, headers: target.headers, body: new Uint8Array(photo) });
    expect(put.ok).toBe(true);
    const set = await api(`/listings/${code}/photos`, { method: "PUT", body: JSON.stringify({ photos: [{ key: target.key }] }) });
    expect(set.status).toBe(202);
    expect(await set.json()).toEqual({ queued: 1 });

    const images = await eventually("processing the photo", async () => {
      const listing = (
        (await (await api(`/account/listings/${code}`)).json()) as { data: { images: string[]; media: { processing: boolean } } }
      ).data;
      return listing.media.processing || listing.images.length === 0 ? undefined : listing.images;
    });
    expect(images).toHaveLength(1);
    expect(images[0].startsWith(`${new URL(blob.apiUrl).origin}/files/`)).toBe(true);
    const derivative = await fetch(images[0]);
    expect(derivative.status).toBe(200);
    expect(derivative.headers.get("content-type")).toBe("image/webp");
    expect((await derivative.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // Rendered by the photo renderer, the server's child process run from the bundle's copy of its file.
    expect(commandLines().filter((line) => line.includes(`${folder}/lib/domain/media/internal/render-process.mjs`))).toHaveLength(1);
  });

  it("runs the jobs without the web server (node worker.mjs), and exits 0 on SIGTERM", async () => {
    const worker = spawn(node24, ["worker.mjs"], {
      cwd: folder,
      env: { ...environment, JOBS_RUNNER: "off", LOG_LEVEL: "info" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    const started = new Promise<void>((resolve, reject) => {
      worker.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("embedded job runner started")) resolve();
      });
      worker.once("exit", (exitCode) => reject(new Error(`worker.mjs exited with ${exitCode}:\n${log}`)));
    });
    const exited = new Promise<number | null>((resolve) => worker.once("exit", resolve));
    await started;
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(log).toContain("shut down");
  });

  it("delivers listing.published to the webhook, signed with its secret", async () => {
    const approved = await api(`/sandbox/listings/${code}/moderation`, { method: "POST", body: JSON.stringify({ decision: "approve" }) });
    expect(approved.status).toBe(200);
    const delivery = await eventually("the webhook delivery", async () => receiver.received.find((request) => request.url === "/hooks"));
    const event = new Webhook(webhookSecret).verify(delivery.body, delivery.headers as Record<string, string>) as {
      type: string;
      data: { code: string; status: string };
    };
    expect(event).toMatchObject({ type: "listing.published", data: { code, status: "active" } });
  });

  it("lists the listing's events with GET /events", async () => {
    const events = await api("/events");
    expect(events.status).toBe(200);
    const { data } = (await events.json()) as { data: { type: string; data: { code?: string } }[] };
    expect(data.filter((event) => event.data.code === code).map((event) => event.type)).toContain("listing.published");
  });

  it("starts as production (APP_ENV=production) on the database db:migrate made, with a live key", async () => {
    await stopServer();
    // Production refuses to start with UNSAFE_ALLOW_LOCAL_URLS set.
    const production = { ...environment, APP_ENV: "production", UNSAFE_ALLOW_LOCAL_URLS: undefined };
    const liveKey = keyOf(email, production);
    expect(liveKey).toMatch(/\|svc_live_/);
    await startServer(production);
    expect((await fetch(`${origin}/login`)).status).toBe(200);
    const headers = { authorization: `Bearer ${liveKey}`, "content-type": "application/json" };
    const created = await fetch(`${origin}/api/v1/listings`, { method: "POST", headers, body: JSON.stringify(exampleApartment) });
    expect(created.status).toBe(201);
    const { code: liveCode } = ((await created.json()) as { data: { code: string } }).data;
    const simulated = await fetch(`${origin}/api/v1/sandbox/listings/${liveCode}/moderation`, {
      method: "POST",
      headers,
      body: JSON.stringify({ decision: "approve" }),
    });
    expect(simulated.status).toBe(404);
  });
});
