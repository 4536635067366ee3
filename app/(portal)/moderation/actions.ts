"use server";

import { z } from "zod";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { nextInQueue } from "@/lib/domain/listings/moderation-queue";
import { closeReport } from "@/lib/domain/listings/reports";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { text, texts } from "@/lib/adapters/portal/form-fields";
import { decisionToken, reportToken, reviewPath } from "@/lib/adapters/portal/moderation-pages";

/**
 * Approve, reject or hide, posted from a listing's review page with the form token of that listing;
 * then the desk goes on to the oldest item left in the queue this moderator may decide on (the
 * queue itself when none is left), saying the decision was recorded.
 */
export const decideAction = portalAction({
  session: "moderator",
  input: z.object({ code: text(100), decision: text(20), reason: text(1000), rejection_codes: texts() }),
  token: decisionToken,
  values: ({ reason, rejection_codes }) => ({ reason, rejection_codes: rejection_codes.join(" ") }),
  run: async ({ ctx, input: { code, decision, reason, rejection_codes } }) => {
    await moderateListing({
      ctx,
      input: { code, decision: decision === "reject" ? { decision, reason, rejection_codes } : { decision } },
    });
    const next = await nextInQueue({ ctx });
    const decided = `?decided=${encodeURIComponent(code)}`;
    return goTo(next ? `${reviewPath(next)}${decided}` : `/moderation${decided}`);
  },
  revalidate: [["/moderation", "layout"]],
});

/** Closes an open report (the owner may then delete the listing), with the form token of that report. */
export const closeReportAction = portalAction({
  session: "moderator",
  input: z.object({ id: text(200) }),
  token: reportToken,
  run: async ({ ctx, input: { id } }) => {
    await closeReport({ ctx, input: { id } });
    return { ok: true };
  },
  revalidate: [["/moderation", "layout"]],
});
