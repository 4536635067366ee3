import { createHash } from "node:crypto";
import type { RateRule } from "@/lib/infra/rate-limit";

/**
 * Sign-in attempts, counted whether they succeed or not. Per account (by e-mail, so an address
 * without an account counts the same): 10 in 15 minutes stops guessing one account's password, at
 * the cost that someone can keep its holder out for the rest of a window (password reset still
 * works). Per client address: 50 in 15 minutes stops spraying many accounts from one place while
 * leaving room for an office behind one address.
 */
export const signInRules = {
  account: { name: "sign_in_account", limit: 10, windowSeconds: 900 },
  address: { name: "sign_in_address", limit: 50, windowSeconds: 900 },
} as const satisfies Record<string, RateRule>;

/** Mails an address can be sent on request of anyone (sign-up notices, reset links): 5 an hour, so no one can flood a mailbox. */
export const accountMailRule = { name: "account_mail", limit: 5, windowSeconds: 3600 } as const satisfies RateRule;

/** The counter's bucket for an e-mail address: its hash, so the limiter's store (Redis) holds no addresses. */
export const emailBucket = (email: string): string => createHash("sha256").update(email).digest("hex");

/** E-mail addresses are compared in lower case, as accounts store them. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();
