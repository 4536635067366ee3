import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { dispatchJobs, registerJobDispatcher } from "@/lib/infra/jobs/dispatch";
import { enqueue, transactionWithJobs } from "@/lib/infra/jobs/enqueue";
import { at, jobRow, recordingJob, rowsNamed } from "./fixtures";
import { restoreEnv, setEnv } from "../support/env";

interface SentEvent {
  name: string;
  data: { jobId: string };
  ts?: number;
}

/** Stands in for Inngest's event API the way the SDK talks to it in dev mode: `POST /e/<event key>`. */
function fakeInngest() {
  const received: SentEvent[] = [];
  let refuse = false;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (refuse || !request.url?.startsWith("/e/")) {
        response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "refused" }));
        return;
      }
      const events = [JSON.parse(body)].flat() as SentEvent[];
      received.push(...events);
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ids: events.map((_, i) => `evt-${received.length + i}`), status: 200 }));
    });
  });
  return { server, received, refuse: (value: boolean) => (refuse = value) };
}

const fake = fakeInngest();

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
  setEnv({ INNGEST_DEV: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}` });
  // The Inngest client reads the environment when it is created, so it is loaded only now.
  const { registerInngestDispatcher } = await import("@/inngest/dispatch");
  expect(registerInngestDispatcher()).toBe(true);
});

afterAll(async () => {
  registerJobDispatcher(undefined);
  restoreEnv();
  await new Promise((resolve) => fake.server.close(resolve));
});

// The SDK stamps `ts` on every event; only a future one is ours.
const eventsFor = (jobId: string) => fake.received.filter((event) => event.data.jobId === jobId).map(({ name, data }) => ({ name, data }));

describe("enqueue with Inngest configured", () => {
  it("sends jobs/<name> with the row's id right after writing it", async () => {
    const { job } = recordingJob("dispatch-now");
    const { id } = await enqueue(job, { value: "now" });
    expect(eventsFor(id)).toEqual([{ name: `jobs/${job.name}`, data: { jobId: id } }]);
  });

  it("asks Inngest to start a future job at its time", async () => {
    const { job } = recordingJob("dispatch-later");
    const runAt = at("2099-01-01T00:00:00Z");
    const { id } = await enqueue(job, {}, { runAt });
    expect(fake.received.filter((event) => event.data.jobId === id).map((event) => event.ts)).toEqual([runAt.getTime()]);
  });

  it("sends a row written in a transaction right after that transaction has committed, not before", async () => {
    const { connection: db } = await database();
    const { job } = recordingJob("dispatch-tx");
    const id = await transactionWithJobs(db, async (_tx, enqueueHere) => {
      const enqueued = await enqueueHere(job, {});
      expect(eventsFor(enqueued.id)).toEqual([]);
      return enqueued.id;
    });
    expect(eventsFor(id)).toEqual([{ name: `jobs/${job.name}`, data: { jobId: id } }]);
    expect(await jobRow(id)).toMatchObject({ status: "queued" });
  });

  it("never sends the event of a row whose transaction rolled back", async () => {
    const { connection: db } = await database();
    const { job } = recordingJob("dispatch-rollback");
    let rolledBack: string | undefined;
    await expect(
      transactionWithJobs(db, async (_tx, enqueueHere) => {
        rolledBack = (await enqueueHere(job, {})).id;
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(rolledBack).toBeDefined();
    expect(await rowsNamed(job.name)).toEqual([]);
    expect(fake.received.filter((event) => event.name === `jobs/${job.name}`)).toEqual([]);
  });

  it("leaves a row enqueued in the caller's own transaction to the caller, who dispatches it after the commit", async () => {
    const { connection: db } = await database();
    const { job } = recordingJob("dispatch-caller");
    const enqueued = await db.transaction((tx) => enqueue(job, {}, { tx }));
    expect(eventsFor(enqueued.id)).toEqual([]);
    expect(await dispatchJobs([enqueued])).toBe(true);
    expect(eventsFor(enqueued.id)).toEqual([{ name: `jobs/${job.name}`, data: { jobId: enqueued.id } }]);
  });

  it("keeps the row when Inngest cannot be reached, for the dispatch sweep to send later", async () => {
    const { job } = recordingJob("dispatch-refused");
    fake.refuse(true);
    try {
      const { id } = await enqueue(job, {});
      expect(await jobRow(id)).toMatchObject({ status: "queued", name: job.name });
      expect(eventsFor(id)).toEqual([]);
    } finally {
      fake.refuse(false);
    }
  });
});
