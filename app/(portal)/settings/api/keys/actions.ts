"use server";

import { z } from "zod";
import { createOwnKey } from "@/lib/domain/keys/create-key";
import type { Permission } from "@/lib/domain/keys/format";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { AppError } from "@/lib/base/errors";
import { goTo, portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import { text, texts } from "@/lib/adapters/portal/form-fields";
import type { FormState } from "@/lib/adapters/portal/form-state";

export interface KeyFormState extends FormState {
  /** The key just created: shown once, in this answer only (only its hash is stored). */
  created?: { id: string; name: string; key: string };
}

const keysPath = "/settings/api/keys";

/** The key form: `createOwnKey` checks the fields, the account and the 10-key limit; its refusals go back to the form. */
export const createKeyAction: PortalAction<KeyFormState> = portalAction({
  session: "account",
  input: z.object({ name: text(200), permissions: texts(10), days: text(10) }),
  values: ({ name, permissions, days }) => ({ name, permissions: permissions.join(","), days }),
  run: async ({ ctx, input: { name, permissions, days } }) => {
    // The service's schema checks each value; the casts only name what it expects.
    const created = await createOwnKey({
      ctx,
      input: { name, permissions: permissions as Permission[], days: Number(days) as 30 | 90 | 365 },
    });
    return { ok: true, created: { id: created.id, name: created.name, key: created.key } };
  },
  // The list and its count change with a creation, and may have changed elsewhere (the CLI) before a refusal.
  revalidate: [keysPath],
  revalidateAfterRefusal: true,
});

/**
 * Revokes one of the account's own keys, then shows the list again with a notice naming it: it
 * always redirects, so it never answers with a state of its own.
 */
export const revokeKeyAction = portalAction({
  session: "account",
  input: z.object({ id: text(100) }),
  run: async ({ ctx, input: { id } }) => {
    await revokeKey({ ctx, input: { id } });
    return goTo(`${keysPath}?revoked=${encodeURIComponent(id)}`);
  },
  // Another account's or an unknown id: nothing to revoke here, and nothing to tell about it.
  refused: (error) => {
    if (error instanceof AppError && error.code === "not_found") return goTo(keysPath);
    throw error;
  },
});
