import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { formToken, formTokenMatches } from "@/lib/adapters/portal/csrf";

// A row's forms carry a token for that listing and account: a post made for another does nothing.
const purpose = "my-listings";

export const rowToken = (account: Pick<SessionAccount, "id">, code: string): string => formToken(account, purpose, code);

export const rowTokenMatches = (token: unknown, account: Pick<SessionAccount, "id">, code: string): boolean =>
  formTokenMatches(token, account, purpose, code);
