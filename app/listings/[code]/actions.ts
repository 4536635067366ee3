"use server";

import { headers } from "next/headers";
import { requestLocale } from "@/app/locale";
import { reportListing } from "@/lib/domain/listings/reports";
import { pageContext } from "@/lib/base/context";
import { clientIp } from "@/lib/adapters/http/endpoint";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";

/** "Report this listing": no account needed, counted per client address; the report goes to the moderators. */
export async function reportListingAction(code: string, _previous: FormState, form: FormData): Promise<FormState> {
  const locale = await requestLocale();
  const values = { reason: formText(form, "reason", 2000), reporterEmail: formText(form, "reporterEmail", 500) };
  try {
    await reportListing({
      ctx: await pageContext(),
      input: {
        code,
        reason: values.reason,
        reporterEmail: values.reporterEmail || undefined,
        address: clientIp((await headers()).get("x-forwarded-for")),
      },
    });
    return { ok: true, message: pageMessages(locale).listing.report.sent };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}
