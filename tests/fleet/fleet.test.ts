import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPgBouncer, type PgBouncer } from "@/db/pgbouncer";
import { createThrowawayDatabase, type ThrowawayDatabase } from "@/db/throwaway";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { bundleEnvironment, keyOf, prepareBundle, type ReleaseBundle } from "../bundle/support";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { startUpstashBridge, type UpstashBridge } from "../support/upstash-bridge";
import { answersApi, freePort, startFleetProcess, startLoadBalancer, type FleetProcess, type LoadBalancer } from "./support";

/**
 * The fleet an operator runs (docs/operations.md, Scaling out): PostgreSQL behind PgBouncer in
 * transaction mode, Redis (through the Upstash bridge) for the limiter and the long polls' places, two
 * web instances of the release bundle with `JOBS_RUNNER=off` and one worker (`node worker.mjs`), behind
 * HAProxy in round robin. Every request of the journeys goes through the balancer unless it says which
 * instance it means.
 */
let database: ThrowawayDatabase;
let pooler: PgBouncer;
let bridge: UpstashBridge;
let receiver: LocalServer;
let release: ReleaseBundle;
let balancer: LoadBalancer;
let environment: NodeJS.ProcessEnv;
let key: string;
/** Keys of the same account for the load of the rolling restart: each key has its own limit (300 a minute). */
let loadKeys: string[] = [];
let webhookSecret: string;
const web: FleetProcess[] = [];
const webPorts: number[] = [];
let worker: FleetProcess;

/** Deliveries the receiver holds unanswered while `holding` is set, to kill the worker mid-attempt. */
let holding = false;
const held: (() => void)[] = [];

const instanceOrigin = (index: number) => `http://127.0.0.1:${webPorts[index]}`;
const api = (path: string, init: RequestInit = {}, origin = balancer.origin, as = key) =>
  fetch(`${origin}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${as}`, "content-type": "application/json", ...init.headers },
  });

async function startWeb(index: number): Promise<FleetProcess> {
  const process = await startFleetProcess(`web ${index + 1}`, {
    node: release.node24,
    folder: release.folder,
    script: "server.js",
    env: { ...environment, PORT: String(webPorts[index]), HOSTNAME: "127.0.0.1" },
    ready: () => answersApi(instanceOrigin(index)),
  });
  web[index] = process;
  return process;
}

async function startWorker(): Promise<FleetProcess> {
  worker = await startFleetProcess("worker", {
    node: release.node24,
    folder: release.folder,
    script: "worker.mjs",
    env: { ...environment, LOG_LEVEL: "info" },
    ready: async (output) => output.includes("embedded job runner started"),
  });
  return worker;
}

/** The deliveries the receiver got, verified with the webhook's secret. */
const deliveries = () =>
  receiver.received
    .filter((request) => request.url === "/hooks")
    .map((request: ReceivedRequest) => ({
      id: request.headers["webhook-id"] as string,
      event: new Webhook(webhookSecret).verify(request.body, request.headers as Record<string, string>) as {
        id: string;
        type: string;
        data: { code: string };
      },
    }));

async function eventually<T>(what: string, read: () => Promise<T | undefined> | T | undefined, seconds = 60): Promise<T> {
  for (let attempt = 0; attempt < seconds * 4; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${seconds} s`);
}

async function createActiveListing(): Promise<string> {
  const created = await api("/listings", { method: "POST", body: JSON.stringify(exampleApartment) });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { code: string } };
  const approved = await api(`/sandbox/listings/${data.code}/moderation`, {
    method: "POST",
    body: JSON.stringify({ decision: "approve" }),
  });
  expect(approved.status).toBe(200);
  return data.code;
}

beforeAll(async () => {
  database = await createThrowawayDatabase(process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", "fleet");
  pooler = await startPgBouncer(database.url);
  bridge = await startUpstashBridge();
  receiver = await startHttpServer((_request, response) => {
    if (holding) held.push(() => response.writeHead(204).end());
    else response.writeHead(204).end();
  });
  release = await prepareBundle("fleet");
  webPorts.push(await freePort(), await freePort());
  const balancerPort = await freePort();
  environment = {
    ...bundleEnvironment(release, database.url, pooler),
    APP_URL: `http://127.0.0.1:${balancerPort}`,
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: bridge.token,
    JOBS_RUNNER: "off",
  };
  release.cli(["db:migrate"], environment);
  const email = `fleet-${randomBytes(4).toString("hex")}@example.com`;
  release.cli(
    ["account:create", "--email", email, "--password", "a fleet password", "--name", "Fleet Holder", "--locale", "en"],
    environment,
  );
  key = keyOf(release, email, environment);
  loadKeys = Array.from({ length: 4 }, () => keyOf(release, email, environment));
  const webhook = release.cli(
    ["webhook:create", "--email", email, "--url", `${receiver.origin}/hooks`, "--events", "listing.published,listing.paused"],
    environment,
  );
  webhookSecret = webhook.secret as string;
  await Promise.all([startWeb(0), startWeb(1)]);
  await startWorker();
  balancer = await startLoadBalancer(
    webPorts.map((port, index) => ({ name: `web${index + 1}`, port })),
    balancerPort,
  );
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await balancer?.stop();
  await Promise.all([...web.map((process) => process.stop()), worker?.stop()]);
  await release?.remove();
  await Promise.all([bridge?.close(), receiver?.close()]);
  await pooler?.stop();
  await database?.drop();
});

describe("the fleet: two web instances and a worker behind HAProxy, PostgreSQL behind PgBouncer", () => {
  it("creates a listing through the balancer and reads it back from each instance", async () => {
    const created = await api("/listings", { method: "POST", body: JSON.stringify(exampleApartment) });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { code: string } };
    for (const index of [0, 1]) expect((await api(`/account/listings/${data.code}`, {}, instanceOrigin(index))).status).toBe(200);
  });

  it("patches with If-Match on one instance and refuses the stale tag on the other with 412", async () => {
    const code = await createActiveListing();
    const read = await api(`/account/listings/${code}`, {}, instanceOrigin(0));
    const etag = read.headers.get("etag")!;
    const patched = await api(
      `/listings/${code}`,
      { method: "PATCH", headers: { "if-match": etag }, body: JSON.stringify({ rooms: 4 }) },
      instanceOrigin(0),
    );
    // A published listing's edit waits for moderation: 202, and a new version all the same.
    expect(patched.status).toBe(202);
    const stale = await api(
      `/listings/${code}`,
      { method: "PATCH", headers: { "if-match": etag }, body: JSON.stringify({ rooms: 5 }) },
      instanceOrigin(1),
    );
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { code: string }).code).toBe("listing_changed_meanwhile");
  });

  it("delivers each event once to the webhook, from the worker, signed and verified", async () => {
    const code = await createActiveListing();
    const published = await eventually("the listing.published delivery", () =>
      deliveries().find(({ event }) => event.type === "listing.published" && event.data.code === code),
    );
    // A moment more: a second attempt of the same event would arrive by now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(deliveries().filter(({ id }) => id === published.id)).toHaveLength(1);
  });

  it("wakes a long poll waiting on one instance with an event committed through the other", async () => {
    const code = await createActiveListing();
    // The newest event so far: the listing's publication, delivered to its webhook.
    const { event: published } = await eventually("the listing's publication", () =>
      deliveries().find(({ event }) => event.type === "listing.published" && event.data.code === code),
    );
    const waiting = api(`/events?after=${published.id}&wait=30`, {}, instanceOrigin(0));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await api(`/listings/${code}/pause`, { method: "POST" }, instanceOrigin(1))).status).toBe(200);
    const answered = (await (await waiting).json()) as { data: { type: string; data: { code: string } }[] };
    expect(answered.data.map((event) => [event.type, event.data.code])).toContainEqual(["listing.paused", code]);
  });

  it("imports a file through the balancer, applied by the worker", async () => {
    const lines = Array.from({ length: 20 }, (_, line) => JSON.stringify({ ...exampleApartment, external_ref: `FLEET-${line}` }));
    const started = await api("/listings/imports", {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: lines.join("\n"),
    });
    expect(started.status).toBe(202);
    const { data } = (await started.json()) as { data: { id: string } };
    const done = await eventually("the import's end", async () => {
      const read = (await (await api(`/listings/imports/${data.id}`)).json()) as {
        data: { status: string; lines: Record<string, number> };
      };
      return read.data.status === "running" || read.data.status === "queued" ? undefined : read.data;
    });
    expect(done.status).toBe("completed");
    expect(done.lines).toMatchObject({ total: 20, done: 20, created: 20 });
  });

  it("answers every request during a rolling restart of the web instances: no 5xx, no reset", async () => {
    const answers: number[] = [];
    const failures: string[] = [];
    let loading = true;
    // Four clients, each with a key of its own, about 4 requests a second each: under the keys' limit.
    const client = async (as: string) => {
      while (loading) {
        try {
          const response = await api("/ping", {}, balancer.origin, as);
          answers.push(response.status);
          await response.arrayBuffer();
        } catch (error) {
          failures.push(String((error as Error).cause ?? error));
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const clients = loadKeys.map(client);
    for (const index of [0, 1]) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await web[index].stop()).toBe(0);
      await startWeb(index);
      // The balancer takes it back after two good checks.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    loading = false;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
  });

  it("delivers an event at least once with the same webhook-id when the worker is killed mid-delivery", async () => {
    holding = true;
    const code = await createActiveListing();
    const first = await eventually("the delivery reaching the receiver", () =>
      deliveries().find(({ event }) => event.type === "listing.published" && event.data.code === code),
    );
    await worker.kill();
    holding = false;
    for (const answer of held.splice(0)) answer();
    await startWorker();
    // The killed attempt's lease ends (60 s), then the restarted worker attempts it again.
    await eventually(
      "the delivery attempted again",
      () => (deliveries().filter(({ id }) => id === first.id).length >= 2 ? true : undefined),
      150,
    );
  }, 240_000);
});
