import { z } from "zod";
import { database as processDatabase, type Database } from "@/db";
import {
  deliverById,
  findDueDeliveries,
  maxDeliveryAttempts,
  maxInFlightPerWebhook,
  type DeliveryStep,
} from "@/lib/domain/webhooks/delivery";
import { systemContext } from "@/lib/base/context";
import { inngest } from "../client";

/** The Inngest event that runs one delivery's attempts. */
export const deliveryEventName = "webhooks/delivery.due";

const deliveryEventData = z.object({ deliveryId: z.string().min(1), webhookId: z.string().min(1) });

export interface WebhookDeliveryDeps {
  database: () => Promise<Database>;
  now: () => Date;
  /** The receiver's time-out (tests shorten it). */
  timeoutMs?: number;
}

const processDeps: WebhookDeliveryDeps = { database: processDatabase, now: () => new Date() };

/**
 * One delivery on Inngest: each attempt is one `step.run` calling the same claim, attempt and
 * bookkeeping as the embedded runner (`deliverById`), and the wait for the next attempt is a durable
 * `step.sleepUntil` of the time stored on the row. At most `maxInFlightPerWebhook` runs per webhook.
 */
export function createWebhookDeliveryFunction(deps: WebhookDeliveryDeps = processDeps) {
  return inngest.createFunction(
    {
      id: "webhook-delivery",
      name: "Webhook delivery",
      retries: 5,
      concurrency: [{ key: "event.data.webhookId", limit: maxInFlightPerWebhook }],
      triggers: [{ event: deliveryEventName }],
    },
    async ({ event, step }) => {
      const { deliveryId } = deliveryEventData.parse(event.data);
      let result: DeliveryStep = { id: deliveryId, status: "gone", reason: "missing" };
      // Each attempt, and each wait for a delivery held by another run, is one round.
      for (let round = 1; round <= maxDeliveryAttempts + 3; round++) {
        result = await step.run(`attempt-${round}`, async () =>
          deliverById({
            ctx: systemContext(await deps.database()),
            input: { id: deliveryId, now: deps.now(), timeoutMs: deps.timeoutMs },
          }),
        );
        if (result.status === "retrying") await step.sleepUntil(`retry-${round}`, result.nextAttemptAt);
        else if (result.status === "waiting") await step.sleepUntil(`wait-${round}`, result.until);
        else return result;
      }
      // Still pending after every round: the row keeps its state and the sweep sends it again.
      return result;
    },
  );
}

/**
 * The event that starts a delivery's run. Its id names the delivery and its attempts so far, so
 * Inngest drops a repeat: the sweep's event for a delivery dispatched at commit (0 attempts) and not
 * yet started is that same event.
 */
export const deliveryEvent = (delivery: { id: string; webhookId: string }, attempts: number) => ({
  id: `${delivery.id}-${attempts}`,
  name: deliveryEventName,
  data: { deliveryId: delivery.id, webhookId: delivery.webhookId },
});

/** How long an attempted delivery may be overdue before the sweep sends it again (its run wakes on time). */
const overdueGraceSeconds = 60;

/**
 * Every minute: sends one `webhooks/delivery.due` per delivery never attempted, or overdue (its run
 * was lost). The event id names the delivery and its attempt count, so Inngest drops a repeat.
 */
export function createWebhookDeliverySweep(deps: Omit<WebhookDeliveryDeps, "timeoutMs"> = processDeps) {
  return inngest.createFunction(
    { id: "webhook-delivery-sweep", name: "Webhook delivery sweep", triggers: [{ cron: "* * * * *" }] },
    async ({ step }) => {
      const due = await step.run("find-due", async () => {
        const database = await deps.database();
        return findDueDeliveries(database.connection, { now: deps.now(), limit: 1000, graceSeconds: overdueGraceSeconds });
      });
      if (due.length > 0) {
        await step.sendEvent(
          "send-due",
          due.map((delivery) => deliveryEvent(delivery, delivery.attempts)),
        );
      }
      return { sent: due.length };
    },
  );
}
