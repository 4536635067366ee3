import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { keyOf } from "../bundle/support";
import { jpegPhoto } from "../media/images";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "../support/local-http-server";
import { startFleet, type Fleet } from "./support";

/**
 * The fleet an operator runs (tests/fleet/support.ts, docs/operations.md, Scaling out): PostgreSQL of its
 * own with a hot standby, behind PgBouncer in transaction mode, Redis, Vercel Blob's fake, two web
 * instances of the release bundle with `JOBS_RUNNER=off` and one worker, behind HAProxy in round robin.
 * Every request of the journeys goes through the balancer unless it says which instance it means.
 */
let fleet: Fleet;
let receiver: LocalServer;
let key: string;
/** Keys of the same account for the loads around the restarts: each key has its own limit (300 a minute). */
let loadKeys: string[] = [];
let webhookSecret: string;

/** Deliveries the receiver holds unanswered while `holding` is set, to kill the worker mid-attempt. */
let holding = false;
const held: (() => void)[] = [];

const api = (path: string, init: RequestInit = {}, origin = fleet.origin, as = key) =>
  fetch(`${origin}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${as}`, "content-type": "application/json", ...init.headers },
  });

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

/**
 * Runs `fn` with the fleet's standby showing nothing new (`pg_wal_replay_pause()`: it keeps receiving
 * the primary's WAL without replaying it), replay resumed afterwards.
 */
async function withStandbyPaused<T>(fn: () => Promise<T>): Promise<T> {
  const standby = postgres(fleet.standby.adminUrl, { max: 1, prepare: false, onnotice: () => {} });
  try {
    await standby`select pg_wal_replay_pause()`;
    try {
      return await fn();
    } finally {
      await standby`select pg_wal_replay_resume()`;
    }
  } finally {
    await standby.end({ timeout: 1 });
  }
}

/**
 * `clients` clients, each with a key of its own, sending `request` about 4 times a second each (under
 * the keys' limit) until `during` has ended: every answer's status and `Retry-After`, and every request
 * that got no answer.
 */
async function underLoad(
  request: (as: string) => Promise<Response>,
  during: () => Promise<void>,
): Promise<{ answers: { status: number; retryAfter: string | null; body: unknown; at: number }[]; failures: string[] }> {
  const answers: { status: number; retryAfter: string | null; body: unknown; at: number }[] = [];
  const failures: string[] = [];
  let loading = true;
  const client = async (as: string) => {
    while (loading) {
      try {
        const response = await request(as);
        answers.push({
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          body: await response.json(),
          at: Date.now(),
        });
      } catch (error) {
        failures.push(String((error as Error).cause ?? error));
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const clients = loadKeys.map(client);
  await during();
  loading = false;
  await Promise.all(clients);
  return { answers, failures };
}

beforeAll(async () => {
  receiver = await startHttpServer((_request, response) => {
    if (holding) held.push(() => response.writeHead(204).end());
    else response.writeHead(204).end();
  });
  fleet = await startFleet("fleet");
  const email = `fleet-${randomBytes(4).toString("hex")}@example.com`;
  fleet.cli(["account:create", "--email", email, "--password", "a fleet password", "--name", "Fleet Holder", "--locale", "en"]);
  key = keyOf(fleet.release, email, fleet.environment);
  loadKeys = Array.from({ length: 4 }, () => keyOf(fleet.release, email, fleet.environment));
  const webhook = fleet.cli([
    "webhook:create",
    "--email",
    email,
    "--url",
    `${receiver.origin}/hooks`,
    "--events",
    "listing.published,listing.paused",
  ]);
  webhookSecret = webhook.secret as string;
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await fleet?.stop();
  await receiver?.close();
});

describe("the fleet: two web instances and a worker behind HAProxy, PostgreSQL and its standby behind PgBouncer", () => {
  it("creates a listing through the balancer and reads it back from each instance", async () => {
    const created = await api("/listings", { method: "POST", body: JSON.stringify(exampleApartment) });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { code: string } };
    for (const index of [0, 1]) expect((await api(`/account/listings/${data.code}`, {}, fleet.instanceOrigin(index))).status).toBe(200);
  });

  it("patches with If-Match on one instance and refuses the stale tag on the other with 412", async () => {
    const code = await createActiveListing();
    const read = await api(`/account/listings/${code}`, {}, fleet.instanceOrigin(0));
    const etag = read.headers.get("etag")!;
    const patched = await api(
      `/listings/${code}`,
      { method: "PATCH", headers: { "if-match": etag }, body: JSON.stringify({ rooms: 4 }) },
      fleet.instanceOrigin(0),
    );
    // A published listing's edit waits for moderation: 202, and a new version all the same.
    expect(patched.status).toBe(202);
    const stale = await api(
      `/listings/${code}`,
      { method: "PATCH", headers: { "if-match": etag }, body: JSON.stringify({ rooms: 5 }) },
      fleet.instanceOrigin(1),
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
    const waiting = api(`/events?after=${published.id}&wait=30`, {}, fleet.instanceOrigin(0));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await api(`/listings/${code}/pause`, { method: "POST" }, fleet.instanceOrigin(1))).status).toBe(200);
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

  it("takes photos through the balancer, rendered by the worker, and serves their renditions", async () => {
    const code = await createActiveListing();
    const photos = [await jpegPhoto({ width: 1200, height: 800 }), await jpegPhoto({ width: 900, height: 1200 })];
    const keys: string[] = [];
    for (const photo of photos) {
      const upload = await api("/uploads", { method: "POST", body: JSON.stringify({ content_length: photo.length }) });
      expect(upload.status).toBe(201);
      const target = (await upload.json()) as { method: string; url: string; headers: Record<string, string>; key: string };
      // The pre-signed address is the balancer's (APP_URL): whichever instance takes the bytes, the others find them.
      expect(new URL(target.url).origin).toBe(fleet.origin);
      const put = await fetch(target.url, { method: target.method, headers: target.headers, body: new Uint8Array(photo) });
      expect(put.ok).toBe(true);
      keys.push(target.key);
    }
    const set = await api(`/listings/${code}/photos`, { method: "PUT", body: JSON.stringify({ photos: keys.map((key) => ({ key })) }) });
    expect(set.status).toBe(202);

    const images = await eventually("the worker rendering the photos", async () => {
      const { data } = (await (await api(`/account/listings/${code}`)).json()) as {
        data: { images: string[]; media: { processing: boolean } };
      };
      return data.media.processing || data.images.length < photos.length ? undefined : data.images;
    });
    expect(images).toHaveLength(2);
    for (const image of images) {
      expect(image.startsWith(`${new URL(fleet.blob.apiUrl).origin}/files/`)).toBe(true);
      const rendition = await fetch(image);
      expect(rendition.status).toBe(200);
      expect(rendition.headers.get("content-type")).toBe("image/webp");
      expect((await rendition.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it("reads the public catalog from the standby, and an owner's reads from the primary, never lagging", async () => {
    await withStandbyPaused(async () => {
      const code = await createActiveListing();
      // The owner's read after its own writes: on both instances at once, the approval included.
      for (const index of [0, 1]) {
        const own = await api(`/account/listings/${code}`, {}, fleet.instanceOrigin(index));
        expect(own.status).toBe(200);
        expect(((await own.json()) as { data: { status: string } }).data.status).toBe("active");
      }
      const etag = (await api(`/account/listings/${code}`)).headers.get("etag")!;
      const patched = await api(`/listings/${code}`, {
        method: "PATCH",
        headers: { "if-match": etag },
        body: JSON.stringify({ rooms: 4 }),
      });
      expect(patched.status).toBe(202);
      const after = await api(`/account/listings/${code}`);
      expect(after.headers.get("etag")).toBe(patched.headers.get("etag"));
      // The catalog reads the standby, which has not replayed the listing yet.
      for (const index of [0, 1]) expect((await api(`/listings/${code}`, {}, fleet.instanceOrigin(index))).status).toBe(404);
      return code;
    }).then((code) =>
      eventually("the catalog showing the listing once the standby replays again", async () =>
        (await api(`/listings/${code}`)).status === 200 ? true : undefined,
      ),
    );
  });

  it("answers every request during a rolling restart of the web instances: no 5xx, no reset", async () => {
    let codes: (number | null)[] = [];
    const { answers, failures } = await underLoad(
      (as) => api("/ping", {}, fleet.origin, as),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        codes = await fleet.rollingRestart();
      },
    );
    expect(codes).toEqual([0, 0]);
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter(({ status }) => status !== 200)).toEqual([]);
  });

  it("answers only 2xx or 503 with Retry-After through a PostgreSQL restart, and loses no acknowledged write", async () => {
    let n = 0;
    const restart = { from: 0, to: 0 };
    const { answers, failures } = await underLoad(
      (as) =>
        api(
          "/listings",
          { method: "POST", body: JSON.stringify({ ...exampleApartment, title: `Restart ${n++}: apartament 3 camere` }) },
          fleet.origin,
          as,
        ),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        restart.from = Date.now();
        await fleet.cluster.restart();
        restart.to = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 3000));
      },
    );
    expect(failures).toEqual([]);
    const refused = answers.filter(({ status }) => status === 503);
    expect(refused.every(({ retryAfter }) => Number(retryAfter) > 0)).toBe(true);
    expect(answers.filter(({ status }) => status !== 201 && status !== 503)).toEqual([]);
    const created = answers.filter(({ status }) => status === 201);
    // Writes acknowledged on both sides of the restart: the fleet served before it and serves again after it.
    expect(created.some(({ at }) => at < restart.from)).toBe(true);
    expect(created.some(({ at }) => at > restart.to)).toBe(true);
    const acknowledged = created.map(({ body }) => (body as { data: { code: string } }).data.code);
    for (const code of acknowledged) expect((await api(`/account/listings/${code}`)).status).toBe(200);
  });

  it("delivers an event at least once with the same webhook-id when the worker is killed mid-delivery", async () => {
    holding = true;
    const code = await createActiveListing();
    const first = await eventually("the delivery reaching the receiver", () =>
      deliveries().find(({ event }) => event.type === "listing.published" && event.data.code === code),
    );
    await fleet.worker().kill();
    holding = false;
    for (const answer of held.splice(0)) answer();
    await fleet.startWorker();
    // The killed attempt's lease ends (60 s), then the restarted worker attempts it again.
    await eventually(
      "the delivery attempted again",
      () => (deliveries().filter(({ id }) => id === first.id).length >= 2 ? true : undefined),
      150,
    );
  }, 240_000);
});
