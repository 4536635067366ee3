import type { SessionAccount } from "@/lib/domain/accounts/session-account";
import { formToken, type FormTokenBinding } from "@/lib/adapters/portal/csrf";

/** A row's forms carry a token for that listing and account: a post made for another does nothing. */
export const rowTokenBinding: FormTokenBinding<{ code: string }> = { purpose: "my-listings", subject: ({ code }) => [code] };

export const rowToken = (account: Pick<SessionAccount, "id">, code: string): string => formToken(account, rowTokenBinding, { code });
