import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { formToken, formTokenMatches } from "@/lib/adapters/portal/csrf";

// The listing form carries a token for the account and the listing ("new" when creating): a post
// made for another listing or account does nothing.
const purpose = "listing-form";

export const listingFormToken = (account: Pick<SessionAccount, "id">, code: string): string => formToken(account, purpose, code || "new");

export const listingFormTokenMatches = (token: unknown, account: Pick<SessionAccount, "id">, code: string): boolean =>
  formTokenMatches(token, account, purpose, code || "new");
