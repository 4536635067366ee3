"use client";

import { ConfirmAction } from "@/components/forms/confirm-action";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { disconnectApp } from "./actions";

export function DisconnectButton({ connectionId, app, texts }: { connectionId: number; app: string; texts: PageMessages["apps"] }) {
  const format = useFormat();

  return (
    <ConfirmAction
      action={disconnectApp}
      fields={{ connection_id: String(connectionId), app }}
      label={texts.connections.disconnect}
      question={format(texts.connections.disconnectQuestion, { app })}
      confirm={texts.connections.disconnectConfirm}
      cancel={texts.cancel}
      pending={texts.connections.disconnecting}
    />
  );
}
