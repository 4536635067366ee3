import { inngestConfigured } from "@/lib/base/config";
import { registerJobDispatcher, type DispatchedJob, type JobDispatcher } from "@/lib/infra/jobs/dispatch";
import { registerDeliveryDispatcher, type DeliveryDispatcher } from "@/lib/domain/webhooks/delivery";
import { inngest } from "./client";
import { deliveryEvent } from "./functions/webhook-delivery";

/** The Inngest event that runs one jobs row: `jobs/<name>` with the row's id. */
export const jobEventName = (name: string): `jobs/${string}` => `jobs/${name}`;

export interface JobEvent {
  name: `jobs/${string}`;
  /** `accountId` for an account-scoped job: its function's concurrency key (run-job.ts). */
  data: { jobId: string; accountId?: string };
  ts?: number;
}

export function jobEvent(job: DispatchedJob): JobEvent {
  const event: JobEvent = { name: jobEventName(job.name), data: { jobId: job.id } };
  if (job.accountId) event.data.accountId = job.accountId;
  // A future `ts` makes Inngest start the run at that time.
  if (job.runAt && job.runAt.getTime() > Date.now()) event.ts = job.runAt.getTime();
  return event;
}

/** Sends one event per committed row; the job's function (run-job.ts) runs it. */
const inngestDispatcher: JobDispatcher = {
  async dispatch(jobs) {
    await inngest.send(jobs.map(jobEvent));
  },
};

/** Sends each committed delivery's event at once (a delivery never attempted), as the sweep would a minute later. */
const inngestDeliveries: DeliveryDispatcher = {
  async dispatch(deliveries) {
    await inngest.send(deliveries.map((delivery) => deliveryEvent(delivery, 0)));
  },
};

/**
 * Called where the process starts (instrumentation, the CLI): when Inngest runs the jobs, every
 * enqueue of this process sends its event through it, and every committed webhook delivery its own.
 * Returns whether Inngest is configured.
 */
export function registerInngestDispatcher(): boolean {
  const configured = inngestConfigured();
  registerJobDispatcher(configured ? inngestDispatcher : undefined);
  registerDeliveryDispatcher(configured ? inngestDeliveries : undefined);
  return configured;
}
