import { eq } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { accounts, agencies, agencyMembers } from "@/db/schema";
import { withTransaction, type ServiceContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { recordActivity } from "./activity";
import { hashPassword, newPassword } from "./internal/password";
import { emailAddress } from "./internal/requested-link";

export const createAccountInput = z.object({
  email: emailAddress,
  password: newPassword.optional(),
  /**
   * Instead of `password`: its argon2id hash, made beforehand with the same parameters, stored as it
   * is (test fixtures: hashing costs tens of milliseconds an account, and the hashing has tests of its own).
   */
  passwordHash: z
    .string()
    .regex(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/)
    .optional(),
  name: z.string().trim().min(1).max(120).optional(),
  phone: z.string().max(32).optional(),
  locale: z.enum(["ro", "en"]).default("ro"),
  agency: z.string().trim().min(1).max(120).optional(),
  role: z.enum(["owner", "admin", "agent"]).optional(),
  moderator: z.boolean().default(false),
  confirmed: z.boolean().default(true),
});

export type CreateAccountInput = z.input<typeof createAccountInput>;

export interface CreatedAccount {
  id: string;
  email: string;
  name: string;
  agency?: { id: string; name: string; role: "owner" | "admin" | "agent" };
}

export async function createAccount({ ctx, input }: { ctx: ServiceContext; input: CreateAccountInput }): Promise<CreatedAccount> {
  const data = parseOrThrow(createAccountInput, input);
  const phone = data.phone ? normalizePhone(data.phone) : null;
  if (data.role && !data.agency) throw new ValidationError([{ pointer: "/agency", code: "required_with", params: { other: "role" } }]);
  // Done before the transaction, which it would otherwise hold for tens of milliseconds.
  const passwordHash = await storedHash(data);
  const id = newId("account");
  return withTransaction(ctx, async ({ db: tx }) => {
    const taken = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, data.email));
    if (taken.length) throw new ValidationError([{ pointer: "/email", code: "invalid_value", params: { reason: "email_taken" } }]);
    await tx.insert(accounts).values({
      id,
      email: data.email,
      name: data.name ?? data.email.split("@")[0],
      passwordHash,
      phone,
      language: data.locale,
      confirmed: data.confirmed,
      isModerator: data.moderator,
    });
    await recordActivity(tx, { accountId: id, actor: ctx.actor, action: "account.created" });
    const created: CreatedAccount = { id, email: data.email, name: data.name ?? data.email.split("@")[0] };
    if (data.agency) {
      const role = data.role ?? "agent";
      const [existing] = await tx.select().from(agencies).where(eq(agencies.name, data.agency));
      const agency =
        existing ??
        (
          await tx
            .insert(agencies)
            .values({ id: newId("agency"), name: data.agency })
            .returning()
        )[0];
      await tx.insert(agencyMembers).values({ agencyId: agency.id, accountId: id, role });
      created.agency = { id: agency.id, name: agency.name, role };
    }
    return created;
  });
}

async function storedHash({ password, passwordHash }: { password?: string; passwordHash?: string }): Promise<string> {
  if (passwordHash !== undefined) return passwordHash;
  if (password === undefined)
    throw new ValidationError([{ pointer: "/password", code: "required_without", params: { other: "passwordHash" } }]);
  return hashPassword(password);
}

function normalizePhone(raw: string): string {
  const phone = parsePhoneNumberFromString(raw, "RO");
  if (!phone?.isValid()) throw new ValidationError([{ pointer: "/phone", code: "phone_number_valid" }]);
  return phone.number;
}
