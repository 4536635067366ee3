"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { reportListing } from "@/lib/domain/listings/reports";
import { clientIp } from "@/lib/base/client-ip";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

/** "Report this listing": no account needed, counted per client address; the report goes to the moderators. */
export const reportListingAction = portalAction({
  session: "visitor",
  input: z.object({ code: text(20), reason: text(2000), reporterEmail: text(500) }),
  values: ({ reason, reporterEmail }) => ({ reason, reporterEmail }),
  run: async ({ ctx, input, locale }) => {
    await reportListing({
      ctx,
      input: {
        code: input.code,
        reason: input.reason,
        reporterEmail: input.reporterEmail || undefined,
        address: clientIp((await headers()).get("x-forwarded-for")),
      },
    });
    return { ok: true, message: pageMessages(locale).listing.report.sent };
  },
});
