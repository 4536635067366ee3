import { createAccount, type CreateAccountInput, type CreatedAccount } from "@/lib/domain/accounts/create-account";
import type { ServiceContext } from "@/lib/base/context";

/** Every seeded account signs in with this password; it exists only in the sandbox and is printed by `npm run dev`. */
export const sandboxPassword = "demo-password";

export const demoEmail = "demo@example.com";

const demoAgencyName = "Demo Imobiliare";

const sandboxAccounts = {
  demo: { email: demoEmail, name: "Demo Cont", phone: "+40721234567", locale: "ro" },
  agencyOwner: {
    email: "owner@demo-imobiliare.example.com",
    name: "Ana Proprietar",
    phone: "+40722000001",
    agency: demoAgencyName,
    role: "owner",
  },
  agencyAdmin: {
    email: "admin@demo-imobiliare.example.com",
    name: "Andrei Admin",
    phone: "+40722000002",
    agency: demoAgencyName,
    role: "admin",
  },
  agencyAgent: {
    email: "agent@demo-imobiliare.example.com",
    name: "Ioana Agent",
    phone: "+40722000003",
    agency: demoAgencyName,
    role: "agent",
    locale: "en",
  },
  moderator: { email: "moderator@example.com", name: "Mihai Moderator", moderator: true, locale: "ro" },
  // The developer of the integrator app "Demo CRM", to which the demo account is connected.
  integrator: { email: "integrator@example.com", name: "Demo CRM (integrator)", locale: "en" },
} satisfies Record<string, Omit<CreateAccountInput, "password">>;

export type SeededAccounts = Record<keyof typeof sandboxAccounts, CreatedAccount>;

/** The sandbox's people: the demo account (an individual), the agency's owner, admin and agent, a moderator, an integrator. */
export async function seedAccounts(ctx: ServiceContext): Promise<SeededAccounts> {
  const seeded: Partial<SeededAccounts> = {};
  for (const [role, input] of Object.entries(sandboxAccounts) as [keyof SeededAccounts, CreateAccountInput][]) {
    seeded[role] = await createAccount({ ctx, input: { ...input, password: sandboxPassword, confirmed: true } });
  }
  return seeded as SeededAccounts;
}
