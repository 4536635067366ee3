import { Inngest, NonRetriableError } from "inngest";
import { serve } from "inngest/node";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeInngest, type FakeInngest, type FakeInngestRun } from "../support/fake-inngest";

/**
 * The Inngest fake the all-services journey relies on (tests/support/fake-inngest.ts), against the
 * SDK's own `serve` in cloud mode: what it does with each kind of step the app's functions use.
 */
let fake: FakeInngest;
let app: Server;
let client: Inngest;
const seen: string[] = [];
let failuresLeft = 0;

beforeAll(async () => {
  fake = await startFakeInngest({ appId: "fake-check" });
  client = new Inngest({ id: "fake-check", isDev: false, baseUrl: fake.url, eventKey: fake.eventKey, signingKey: fake.signingKey });
  const functions = [
    client.createFunction({ id: "steps", triggers: [{ event: "check/steps" }] }, async ({ event, step }) => {
      const first = await step.run("first", () => `${String(event.data.value)}-1`);
      await step.sleepUntil("short-wait", new Date(Date.now() + 300));
      const [left, right] = await Promise.all([step.run("left", () => "L"), step.run("right", () => "R")]);
      await step.sendEvent("follow-up", { name: "check/follow-up", data: { from: first } });
      return { first, left, right };
    }),
    client.createFunction({ id: "follow-up", triggers: [{ event: "check/follow-up" }] }, ({ event }) => {
      seen.push(String(event.data.from));
      return { seen: event.data.from as string };
    }),
    client.createFunction({ id: "flaky", retries: 2, triggers: [{ event: "check/flaky" }] }, () => {
      if (failuresLeft-- > 0) throw new Error("not yet");
      return "recovered";
    }),
    client.createFunction({ id: "refusing", triggers: [{ event: "check/refusing" }] }, () => {
      throw new NonRetriableError("never");
    }),
    client.createFunction({ id: "hourly", triggers: [{ cron: "0 * * * *" }] }, ({ event }) => ({ trigger: event.name })),
  ];
  const handler = serve({ client, functions });
  app = createServer(handler);
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  const sync = await fetch(`http://127.0.0.1:${(app.address() as AddressInfo).port}/api/inngest`, { method: "PUT" });
  expect(sync.status).toBe(200);
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => app?.close(resolve));
});

const ended = async (functionId: string): Promise<FakeInngestRun> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const run = fake.runs.find((candidate) => candidate.functionId === `fake-check-${functionId}`);
    if (run && (run.status === "completed" || run.status === "failed")) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no run of ${functionId} ended`);
};

describe("the Inngest fake against the SDK's serve", () => {
  it("keeps the functions of the sync, authorised by the signing key's hash", () => {
    expect(fake.functionIds().sort()).toEqual([
      "fake-check-flaky",
      "fake-check-follow-up",
      "fake-check-hourly",
      "fake-check-refusing",
      "fake-check-steps",
    ]);
  });

  it("runs a function's steps, memoized, through a sleep and parallel steps, and the event it sends starts another", async () => {
    await client.send({ name: "check/steps", data: { value: "v" } });
    expect(await ended("steps")).toMatchObject({ status: "completed", output: { first: "v-1", left: "L", right: "R" } });
    expect(await ended("follow-up")).toMatchObject({ status: "completed", output: { seen: "v-1" } });
    expect(seen).toEqual(["v-1"]);
  });

  it("drops an event whose id it has seen", async () => {
    await client.send({ id: "once", name: "check/unheard", data: {} });
    await client.send({ id: "once", name: "check/unheard", data: {} });
    expect(fake.events.filter((event) => event.id === "once")).toHaveLength(1);
  });

  it("retries a function that fails, up to its retries, and stops at a non-retriable error", async () => {
    failuresLeft = 2;
    await client.send({ name: "check/flaky", data: {} });
    const flaky = await ended("flaky");
    expect(flaky).toMatchObject({ status: "completed", output: "recovered" });
    expect(flaky.calls.map((call) => call.status)).toEqual([500, 500, 200]);
    await client.send({ name: "check/refusing", data: {} });
    const refusing = await ended("refusing");
    expect(refusing.status).toBe("failed");
    expect(refusing.calls).toHaveLength(1);
  });

  it("runs a cron function on demand with the scheduled-timer event", async () => {
    expect(await fake.runCron("hourly")).toMatchObject({ status: "completed", output: { trigger: "inngest/scheduled.timer" } });
  });
});
