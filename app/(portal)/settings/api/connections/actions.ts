"use server";

import { z } from "zod";
import { disconnect } from "@/lib/domain/oauth/disconnect";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

/** Disconnect: the app's key is revoked at once (another account's connection answers like a missing one). */
export const disconnectApp = portalAction({
  session: "account",
  input: z.object({
    connection_id: text(20).transform((posted) => (Number.isSafeInteger(Number(posted)) ? Number(posted) : 0)),
    app: text(200),
  }),
  run: async ({ ctx, input, locale }) => {
    await disconnect({ ctx, input: { connection_id: input.connection_id } });
    return { ok: true, message: format(locale, pageMessages(locale).apps.connections.disconnected, { app: input.app }) };
  },
  revalidate: ["/settings/api/connections"],
});
