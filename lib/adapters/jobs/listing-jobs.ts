import { remindConfirmationDue } from "@/lib/domain/listings/remind-confirmation";
import { unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { listingJobs } from "@/lib/domain/listings/jobs";
import { defineJob } from "@/lib/infra/jobs/define";

// One pass handles a bounded batch; a few passes per run keep a backlog moving while staying well
// inside the claim lease. Whatever is left waits for the next run.
const maxPassesPerRun = 20;

/**
 * Active listings not confirmed for 30 days become `unconfirmed`. Hourly rather than
 * daily, so a listing changes state within the hour its 30 days end.
 */
export const unconfirmListingsJob = defineJob({
  ...listingJobs.unconfirm,
  cron: "10 * * * *",
  retry: { delaysSeconds: [300, 1800] },
  handler: async (_payload, ctx) => {
    let unconfirmed = 0;
    for (let pass = 0; pass < maxPassesPerRun; pass++) {
      const result = await unconfirmStaleListings({ ctx });
      unconfirmed += result.unconfirmed;
      if (result.unconfirmed === 0) break;
    }
    return { unconfirmed };
  },
});

/**
 * Owners of active listings in their last 3 days are mailed a reminder to confirm them, once per
 * confirmation period. Hourly, half an hour apart from `listings.unconfirm`, so the two never run
 * in the same tick of the runner for nothing.
 */
export const remindConfirmationJob = defineJob({
  ...listingJobs.remindConfirmation,
  cron: "40 * * * *",
  retry: { delaysSeconds: [300, 1800] },
  handler: async (_payload, ctx) => {
    const total = { reminded: 0, mails: 0 };
    for (let pass = 0; pass < maxPassesPerRun; pass++) {
      const result = await remindConfirmationDue({ ctx });
      total.reminded += result.reminded;
      total.mails += result.mails;
      if (result.mails === 0) break;
    }
    return total;
  },
});
