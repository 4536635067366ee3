import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { systemContext, withTransaction } from "@/lib/base/context";
import { eventTypes, recordEvent } from "@/lib/domain/events";
import { registerDeliveryDispatcher } from "@/lib/domain/webhooks/delivery";
import { registerJobDispatcher } from "@/lib/infra/jobs/dispatch";
import { startFakeInngest, type FakeInngest } from "../support/fake-inngest";
import { hookedAccount, localReceiver, onlyDelivery, withLocalReceivers } from "./delivery-support";
import { restoreEnv, setEnv } from "../support/env";

withLocalReceivers();

/**
 * On Inngest no runner listens for the commit's NOTIFY: the delivery's event is sent right after the
 * event's transaction commits (the sweep, a minute later, stays the safety net). The process is set
 * up as instrumentation does it, against a local Inngest (tests/support/fake-inngest.ts) that has not
 * synced the app's functions, so it only records the events it is sent: no sweep can have run.
 */
let inngest: FakeInngest;

beforeAll(async () => {
  inngest = await startFakeInngest();
  setEnv({ INNGEST_EVENT_KEY: inngest.eventKey, INNGEST_SIGNING_KEY: inngest.signingKey, INNGEST_BASE_URL: inngest.url });
  // The Inngest client reads its environment when it is made: a fresh module graph for it.
  vi.resetModules();
  const { registerInngestDispatcher } = await import("@/inngest/dispatch");
  expect(registerInngestDispatcher()).toBe(true);
});

afterAll(async () => {
  registerJobDispatcher(undefined);
  registerDeliveryDispatcher(undefined);
  restoreEnv();
  await inngest.close();
});

afterEach(() => {
  inngest.events.length = 0;
});

async function publishedIn(accountId: string, then: "commit" | "roll back") {
  const ctx = systemContext(await database());
  await withTransaction(ctx, async (tx) => {
    await recordEvent(tx.db, { accountId, type: eventTypes.published, data: { code: "X1" }, now: new Date() });
    if (then === "roll back") throw new Error("the change fails after its event was written");
  });
}

describe("webhook deliveries on Inngest", () => {
  it("are sent to Inngest when their event commits, with the id the sweep would give them", async () => {
    const { account, webhook } = await hookedAccount(await localReceiver(() => ({ status: 204 })));
    await publishedIn(account.id, "commit");
    const delivery = await onlyDelivery(webhook.id);
    expect(inngest.events.map(({ id, name, data }) => ({ id, name, data }))).toEqual([
      { id: `${delivery.id}-0`, name: "webhooks/delivery.due", data: { deliveryId: delivery.id, webhookId: webhook.id } },
    ]);
    expect(inngest.runs).toEqual([]);
  });

  it("are not sent when the event's transaction rolls back", async () => {
    const { account } = await hookedAccount(await localReceiver(() => ({ status: 204 })));
    await expect(publishedIn(account.id, "roll back")).rejects.toThrow("the change fails");
    expect(inngest.events).toEqual([]);
  });

  it("left to the sweep when Inngest does not take them: the change still succeeds", async () => {
    const { account, webhook } = await hookedAccount(await localReceiver(() => ({ status: 204 })));
    const { url } = inngest;
    setEnv({ INNGEST_BASE_URL: "http://127.0.0.1:1" });
    vi.resetModules();
    const { registerInngestDispatcher } = await import("@/inngest/dispatch");
    registerInngestDispatcher();
    try {
      await publishedIn(account.id, "commit");
      expect(await onlyDelivery(webhook.id)).toMatchObject({ status: "pending", attempts: 0 });
      expect(inngest.events).toEqual([]);
    } finally {
      setEnv({ INNGEST_BASE_URL: url });
      vi.resetModules();
      (await import("@/inngest/dispatch")).registerInngestDispatcher();
    }
  });
});
