import { z } from "zod";
import { declareJob } from "@/lib/infra/jobs/define";

/** The listings' scheduled jobs; the worker binds their handlers and schedules (lib/adapters/jobs/listing-jobs.ts). */
export const listingJobs = {
  /** Active listings not confirmed for 30 days become `unconfirmed`. */
  unconfirm: declareJob({ name: "listings.unconfirm", payload: z.object({}) }),
  /** Owners are mailed in the last 3 days of a confirmation period. */
  remindConfirmation: declareJob({ name: "listings.remind-confirmation", payload: z.object({}) }),
};
