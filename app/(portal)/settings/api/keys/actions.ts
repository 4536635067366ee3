"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requestLocale } from "@/app/locale";
import { createOwnKey } from "@/lib/domain/keys/create-key";
import type { Permission } from "@/lib/domain/keys/format";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { AppError } from "@/lib/base/errors";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";

export interface KeyFormState extends FormState {
  /** The key just created: shown once, in this answer only (only its hash is stored). */
  created?: { id: string; name: string; key: string };
}

const keysPath = "/settings/api/keys";

/** The key form: `createOwnKey` checks the fields, the account and the 10-key limit; its refusals go back to the form. */
export async function createKeyAction(_previous: KeyFormState, form: FormData): Promise<KeyFormState> {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const name = formText(form, "name", 200);
  const permissions = form
    .getAll("permissions")
    .filter((value): value is string => typeof value === "string")
    .slice(0, 10);
  const days = formText(form, "days", 10);
  const values = { name, permissions: permissions.join(","), days };
  try {
    // The service's schema checks each value; the casts only name what it expects.
    const created = await createOwnKey({
      ctx,
      input: { name, permissions: permissions as Permission[], days: Number(days) as 30 | 90 | 365 },
    });
    return { ok: true, created: { id: created.id, name: created.name, key: created.key } };
  } catch (error) {
    return refusalState(error, locale, values);
  } finally {
    // The list and its count change with a creation, and may have changed elsewhere (the CLI) before a refusal.
    revalidatePath(keysPath);
  }
}

/**
 * Revokes one of the account's own keys, then shows the list again with a notice naming it: it
 * always redirects, so it never answers with a state of its own.
 */
export async function revokeKeyAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { ctx } = await requireAccount();
  const id = formText(form, "id", 100);
  try {
    await revokeKey({ ctx, input: { id } });
  } catch (error) {
    // Another account's or an unknown id: nothing to revoke here, and nothing to tell about it.
    if (error instanceof AppError && error.code === "not_found") redirect(keysPath);
    throw error;
  }
  redirect(`${keysPath}?revoked=${encodeURIComponent(id)}`);
}
