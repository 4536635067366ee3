"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { registerClient } from "@/lib/domain/oauth/register-client";
import { rotateClientSecret } from "@/lib/domain/oauth/rotate-client-secret";
import { updateClientRedirectUris } from "@/lib/domain/oauth/update-client-redirect-uris";
import { format } from "@/lib/platform/i18n";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { formText, refusalState, type FormState } from "@/lib/portal/form-state";
import { requireAccount } from "@/lib/portal/session";

/** An answer that may carry an app's credentials, the secret shown this once. */
export interface AppFormState extends FormState {
  credentials?: { name: string; clientId: string; clientSecret: string };
}

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export async function registerApp(_previous: AppFormState, form: FormData): Promise<AppFormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const values = { name: formText(form, "name", 500), redirect_uris: formText(form, "redirect_uris", 30_000) };
  try {
    const app = await registerClient({ ctx, input: { name: values.name, redirect_uris: lines(values.redirect_uris) } });
    revalidatePath("/settings/api/apps");
    return {
      ok: true,
      message: format(pageMessages(locale).apps.registered, { name: app.name }),
      credentials: { name: app.name, clientId: app.client_id, clientSecret: app.client_secret },
    };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}

export async function rotateAppSecret(_previous: AppFormState, form: FormData): Promise<AppFormState> {
  const { ctx } = await requireAccount();
  try {
    const rotated = await rotateClientSecret({ ctx, input: { client_id: formText(form, "client_id", 200) } });
    revalidatePath("/settings/api/apps");
    return {
      ok: true,
      credentials: { name: formText(form, "name", 200), clientId: rotated.client_id, clientSecret: rotated.client_secret },
    };
  } catch (error) {
    return refusalState(error, await requestLocale());
  }
}

export async function saveRedirectUris(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const values = { redirect_uris: formText(form, "redirect_uris", 30_000) };
  try {
    await updateClientRedirectUris({
      ctx,
      input: { client_id: formText(form, "client_id", 200), redirect_uris: lines(values.redirect_uris) },
    });
    revalidatePath("/settings/api/apps");
    return { ok: true, message: format(pageMessages(locale).apps.saved, { name: formText(form, "name", 200) }), values };
  } catch (error) {
    return refusalState(error, locale, values);
  }
}
