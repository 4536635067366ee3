import { createAccount, createAccountInput } from "@/lib/domain/accounts/create-account";
import { defineCommand } from "./command";

export const accountCommands = [
  defineCommand({
    name: "account:create",
    summary: "Creates a confirmed account, optionally a member of an agency (created if new) or a moderator.",
    args: createAccountInput.omit({ confirmed: true }),
    run: async (ctx, args) => {
      const account = await createAccount({ ctx, input: { ...args, confirmed: true } });
      return { ...account, moderator: args.moderator };
    },
  }),
];
