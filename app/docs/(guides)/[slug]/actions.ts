"use server";

import { z } from "zod";
import { createDocsKey } from "@/lib/domain/keys/create-docs-key";
import { portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import type { FormState } from "@/lib/adapters/portal/form-state";

export interface DocsKeyState extends FormState {
  /** The key just made: answered once, kept by the page in the tab's sessionStorage (only its hash is stored). */
  key?: string;
}

/** The guides' "Create a key for the samples" button: a sandbox key of the signed-in account (createDocsKey). */
export const createDocsKeyAction: PortalAction<DocsKeyState> = portalAction({
  session: "account",
  input: z.object({}),
  run: async ({ ctx }) => ({ ok: true, key: (await createDocsKey({ ctx })).key }),
  revalidate: ["/settings/api/keys"],
});
