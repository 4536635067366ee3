"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { disconnect } from "@/lib/domain/oauth/disconnect";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";

/** Disconnect: the app's key is revoked at once (another account's connection answers like a missing one). */
export async function disconnectApp(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const id = Number(formText(form, "connection_id", 20));
  try {
    await disconnect({ ctx, input: { connection_id: Number.isSafeInteger(id) ? id : 0 } });
    revalidatePath("/settings/api/connections");
    return { ok: true, message: format(pageMessages(locale).apps.connections.disconnected, { app: formText(form, "app", 200) }) };
  } catch (error) {
    return refusalState(error, locale);
  }
}
