import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { resetConfig } from "@/lib/platform/config";
import { newId } from "@/lib/platform/ids";
import { at, jobRow, recordingJob } from "./fixtures";

interface SentEvent {
  name: string;
  data: { jobId: string };
  ts?: number;
}

/** Stands in for Inngest's event API the way the SDK talks to it in dev mode (STACK.md). */
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
let modules: {
  enqueue: typeof import("@/lib/platform/jobs/enqueue").enqueue;
  sendAfterCommit: typeof import("@/lib/platform/jobs/dispatch").sendAfterCommit;
};

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("INNGEST_DEV", `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`);
  resetConfig();
  // The Inngest client reads the environment when it is created, so it is loaded only now.
  modules = {
    enqueue: (await import("@/lib/platform/jobs/enqueue")).enqueue,
    sendAfterCommit: (await import("@/lib/platform/jobs/dispatch")).sendAfterCommit,
  };
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfig();
  await new Promise((resolve) => fake.server.close(resolve));
});

// The SDK stamps `ts` on every event; only a future one is ours.
const eventsFor = (jobId: string) => fake.received.filter((event) => event.data.jobId === jobId).map(({ name, data }) => ({ name, data }));

describe("enqueue with Inngest configured", () => {
  it("sends jobs/<name> with the row's id right after writing it", async () => {
    const { job } = recordingJob("dispatch-now");
    const { id } = await modules.enqueue(job, { value: "now" });
    expect(eventsFor(id)).toEqual([{ name: `jobs/${job.name}`, data: { jobId: id } }]);
  });

  it("asks Inngest to start a future job at its time", async () => {
    const { job } = recordingJob("dispatch-later");
    const runAt = at("2099-01-01T00:00:00Z");
    const { id } = await modules.enqueue(job, {}, { runAt });
    expect(fake.received.filter((event) => event.data.jobId === id).map((event) => event.ts)).toEqual([runAt.getTime()]);
  });

  it("sends a row written in a transaction only once the transaction has committed", async () => {
    const { db } = await database();
    const { job } = recordingJob("dispatch-tx");
    const id = await db.transaction(async (tx) => {
      const enqueued = await modules.enqueue(job, {}, { tx });
      expect(eventsFor(enqueued.id)).toEqual([]);
      return enqueued.id;
    });
    await vi.waitFor(() => expect(eventsFor(id)).toEqual([{ name: `jobs/${job.name}`, data: { jobId: id } }]), { timeout: 15_000 });
  });

  it("never sends the event of a row whose transaction rolled back", async () => {
    const { job } = recordingJob("dispatch-rollback");
    const neverCommitted = { id: newId("job"), name: job.name, runAt: new Date() };
    expect(await modules.sendAfterCommit(neverCommitted, [1, 1])).toBe(false);
    expect(eventsFor(neverCommitted.id)).toEqual([]);
  });

  it("keeps the row when Inngest cannot be reached, for the dispatch sweep to send later", async () => {
    const { job } = recordingJob("dispatch-refused");
    fake.refuse(true);
    try {
      const { id } = await modules.enqueue(job, {});
      expect(await jobRow(id)).toMatchObject({ status: "queued", name: job.name });
      expect(eventsFor(id)).toEqual([]);
    } finally {
      fake.refuse(false);
    }
  });
});
