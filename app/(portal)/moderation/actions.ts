"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { nextInQueue } from "@/lib/domain/listings/moderation-queue";
import { closeReport } from "@/lib/domain/listings/reports";
import { formTokenMatches } from "@/lib/adapters/portal/csrf";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { decisionPurpose, reportPurpose, reviewPath } from "@/lib/adapters/portal/moderation-pages";
import { requireModerator } from "@/lib/adapters/portal/session";
import { AppError } from "@/lib/base/errors";

/**
 * Approve, reject or hide, posted from a listing's review page with the form token of that listing;
 * then the desk goes on to the oldest item left in the queue this moderator may decide on (the
 * queue itself when none is left), saying the decision was recorded.
 */
export async function decideAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireModerator();
  const locale = await requestLocale();
  const code = formText(form, "code", 100);
  const values = { reason: formText(form, "reason", 1000), rejection_codes: form.getAll("rejection_codes").map(String).join(" ") };
  try {
    if (!formTokenMatches(form.get("token"), account, decisionPurpose, code)) throw new AppError("forbidden");
    const decision = formText(form, "decision", 20);
    await moderateListing({
      ctx,
      input: {
        code,
        decision:
          decision === "reject"
            ? { decision, reason: values.reason, rejection_codes: form.getAll("rejection_codes").map(String) }
            : { decision },
      },
    });
  } catch (error) {
    return refusalState(error, locale, values);
  }
  revalidatePath("/moderation", "layout");
  const next = await nextInQueue({ ctx });
  redirect(next ? `${reviewPath(next)}?decided=${encodeURIComponent(code)}` : `/moderation?decided=${encodeURIComponent(code)}`);
}

/** Closes an open report (the owner may then delete the listing), with the form token of that report. */
export async function closeReportAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireModerator();
  const id = formText(form, "id", 200);
  try {
    if (!formTokenMatches(form.get("token"), account, reportPurpose, id)) throw new AppError("forbidden");
    await closeReport({ ctx, input: { id } });
    revalidatePath("/moderation", "layout");
    return { ok: true };
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
}
