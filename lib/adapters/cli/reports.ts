import { z } from "zod";
import {
  closeReport,
  listOpenReports,
  reportListing,
  reportReason,
  reporterEmail,
  type ListingReport,
} from "@/lib/domain/listings/reports";
import { defineCommand } from "./command";

const reportJson = (report: ListingReport) => ({
  id: report.id,
  code: report.listingCode,
  reason: report.reason,
  reporter_email: report.reporterEmail,
  status: report.status,
  created_at: report.createdAt.toISOString(),
  closed_at: report.closedAt?.toISOString() ?? null,
});

export const reportCommands = [
  defineCommand({
    name: "report:create",
    summary: 'Reports an active listing, as the portal\'s "report this listing" does; an open report blocks its deletion.',
    positional: ["code"],
    args: z.object({ code: z.string().min(1), reason: reportReason, "reporter-email": reporterEmail.optional() }),
    run: async (ctx, args) =>
      reportJson(await reportListing({ ctx, input: { code: args.code, reason: args.reason, reporterEmail: args["reporter-email"] } })),
  }),
  defineCommand({
    name: "report:list",
    summary: "Lists open reports oldest first (at most 500), of one listing when its code is given.",
    positional: ["code"],
    args: z.object({ code: z.string().min(1).optional() }),
    run: async (ctx, args) => ({ reports: (await listOpenReports({ ctx, input: { code: args.code } })).map(reportJson) }),
  }),
  defineCommand({
    name: "report:close",
    summary: "Closes a report once moderation has dealt with it; the listing can be deleted when none is left open.",
    args: z.object({ id: z.string().min(1) }),
    run: async (ctx, args) => reportJson(await closeReport({ ctx, input: { id: args.id } })),
  }),
];
