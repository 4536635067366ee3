import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { parseOrThrow } from "@/lib/base/validation/zod";

export const setAccountLanguageInput = z.object({ language: z.enum(["ro", "en"]) });

/**
 * The signed-in account's language: its mails, and the API's answers to its keys (after `?locale=`,
 * before `Accept-Language`). The API reads it with the key on every request
 * (lib/domain/keys/authenticate.ts, nothing cached), so the next request already answers in it.
 */
export async function setAccountLanguage({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof setAccountLanguageInput>;
}): Promise<{ language: Locale }> {
  const { language } = parseOrThrow(setAccountLanguageInput, input);
  const [updated] = await ctx.db
    .update(accounts)
    .set({ language })
    .where(eq(accounts.id, ctx.actor.accountId))
    .returning({ language: accounts.language });
  if (!updated) throw notFound();
  return { language: updated.language };
}
