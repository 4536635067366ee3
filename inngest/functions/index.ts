import { jobRegistry } from "@/lib/adapters/jobs/registry";
import { createDispatchSweep } from "./dispatch-sweep";
import { createJobFunction } from "./run-job";
import { createWebhookDeliveryFunction, createWebhookDeliverySweep } from "./webhook-delivery";

/** Everything `/api/inngest` serves: one function per registered job, the dispatch sweep, and webhook deliveries. */
export const inngestFunctions = [
  ...jobRegistry.map((job) => createJobFunction(job)),
  createDispatchSweep(),
  createWebhookDeliveryFunction(),
  createWebhookDeliverySweep(),
];
