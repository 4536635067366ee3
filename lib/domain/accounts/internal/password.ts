import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";

/** What a new password must be: long enough to resist guessing, short enough to hash cheaply. */
export const newPassword = z.string().min(10).max(200);

/** Argon2id with the library's defaults (19 MiB, 2 passes: OWASP's recommended minimum). */
export const hashPassword = (password: string): Promise<string> => hash(password);

/**
 * Verified instead of an account's hash when the e-mail has no account, so that a sign-in for an
 * unknown address costs the same argon2 work as one for a known address and timing tells nothing.
 * Made with the same defaults as `hashPassword` (tests/accounts/password.test.ts checks they agree);
 * its password is random and forgotten, so nothing matches it.
 */
export const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$FtqjZ+qPcLlc3Lb8Nx4QRw$RMmjJKPBDLK1We227bjSsfmN9Ou27cVwO3wf359cVLQ";

/** Whether `password` matches `stored` (the dummy hash when there is no account: always false). */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  try {
    const matches = await verify(stored ?? dummyHash, password);
    return stored !== undefined && matches;
  } catch {
    // A hash that does not parse matches nothing.
    return false;
  }
}
