import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { ValidationError } from "@/lib/base/errors";
import { createKey } from "@/lib/domain/keys/create-key";
import { permissions, validityDays } from "@/lib/domain/keys/format";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { commaList, defineCommand } from "./command";

export const keyCommands = [
  defineCommand({
    name: "key:create",
    summary: `Creates an API key for the account with this e-mail; permissions from ${permissions.join(", ")}.`,
    args: z.object({
      email: z.email().transform((email) => email.toLowerCase()),
      name: z.string(),
      permissions: commaList(z.enum(permissions)),
      days: z.enum(validityDays.map(String) as [string, ...string[]]).transform(Number),
    }),
    run: async (ctx, args) => {
      const [account] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, args.email));
      if (!account) {
        throw new ValidationError([{ pointer: "/email", code: "invalid_value", params: { reason: "unknown_account_email" } }]);
      }
      const key = await createKey({
        ctx,
        input: { accountId: account.id, name: args.name, permissions: args.permissions, days: args.days as (typeof validityDays)[number] },
      });
      return {
        key: key.key,
        id: key.id,
        name: key.name,
        permissions: key.permissions,
        environment: key.environment,
        expires_at: key.expiresAt.toISOString(),
      };
    },
  }),
  defineCommand({
    name: "key:revoke",
    summary: "Revokes an API key at once: its next request gets 401.",
    args: z.object({ id: z.string().min(1) }),
    run: async (ctx, args) => {
      const revoked = await revokeAnyKey({ ctx, input: { id: args.id } });
      return { id: revoked.id, revoked_at: revoked.revokedAt?.toISOString() ?? null };
    },
  }),
];
