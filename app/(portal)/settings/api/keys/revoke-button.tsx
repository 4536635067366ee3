"use client";

import { ConfirmAction } from "@/components/forms/confirm-action";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { revokeKeyAction } from "./actions";

/**
 * Revocation in two steps: "Revoke" turns into the question "Revoke “name”?" (which sends the form),
 * what revoking does, and Cancel; the page then comes back with a notice naming the key.
 */
export function RevokeButton({ id, name, texts }: { id: string; name: string; texts: PageMessages["apiKeys"]["revoke"] }) {
  const format = useFormat();

  return (
    <ConfirmAction
      action={revokeKeyAction}
      fields={{ id }}
      label={texts.button}
      labelFor={format(texts.buttonLabel, { name })}
      explanation={texts.explain}
      confirm={format(texts.confirm, { name })}
      cancel={texts.cancel}
      pending={texts.pending}
      className="confirm"
    />
  );
}
