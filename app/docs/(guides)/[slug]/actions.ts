"use server";

import { z } from "zod";
import { createDocsKey } from "@/lib/domain/keys/create-docs-key";
import { portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import type { DocsKeyState } from "@/components/docs-samples";

/** The guides' "Create a key for the samples" button: a sandbox key of the signed-in account (createDocsKey). */
export const createDocsKeyAction: PortalAction<DocsKeyState> = portalAction({
  session: "account",
  input: z.object({}),
  run: async ({ ctx }) => ({ ok: true, key: (await createDocsKey({ ctx })).key }),
  revalidate: ["/settings/api/keys"],
});
