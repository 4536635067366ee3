import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as argon2 from "@node-rs/argon2";
import { database } from "@/db";
import { accounts } from "@/db/schema";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { verifyCredentials } from "@/lib/domain/accounts/verify-credentials";
import { operatorContext } from "@/lib/base/context";
import { withFrozenClock } from "../support/clock";
import { confirmedAccount, freshEmail, password, publicCtx } from "./support";

vi.mock("@node-rs/argon2", { spy: true });

let lastOctet = 0;
/** A fresh client address: each test counts its own attempts. */
const freshAddress = () => `198.51.100.${++lastOctet}`;

async function signIn(email: string, given: string, address = freshAddress()) {
  return verifyCredentials({ ctx: await publicCtx(), input: { email, password: given, address } });
}

describe("verifyCredentials", () => {
  it("gives a confirmed account with its session generation and agency", async () => {
    const { email, account } = await confirmedAccount({ language: "ro" });
    expect(await signIn(email.toUpperCase(), password)).toEqual({
      ok: true,
      account: { id: account.id, email, name: "Ana Pop", language: "ro", sessionGeneration: 0, agency: null },
    });

    const member = freshEmail();
    const created = await createAccount({
      ctx: operatorContext(await database()),
      input: { email: member, password, agency: `Agency ${member}`, role: "admin" },
    });
    const result = await signIn(member, password);
    expect(result.ok && result.account.agency).toEqual({ id: created.agency!.id, role: "admin" });
  });

  it("refuses a wrong password and an unknown address alike, after the same argon2 work", async () => {
    const { email } = await confirmedAccount();
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    const wrong = await signIn(email, "not the password");
    const unknown = await signIn(freshEmail(), password);
    expect(wrong).toEqual({ ok: false, reason: "invalid_credentials" });
    expect(unknown).toEqual(wrong);
    expect(verify).toHaveBeenCalledTimes(2);
    // The unknown address is checked against a hash of the same parameters as a real one.
    const [[knownHash], [dummy]] = verify.mock.calls as [string, string][];
    expect(argon2.parseOptions(dummy)).toEqual(argon2.parseOptions(knownHash));
  });

  it("tells an inactive or unconfirmed account only to whoever gives its password", async () => {
    const { email, account } = await confirmedAccount();
    const db = await database();
    await db.connection.update(accounts).set({ active: false }).where(eq(accounts.id, account.id));
    expect(await signIn(email, password)).toEqual({ ok: false, reason: "account_inactive" });
    expect(await signIn(email, "not the password")).toEqual({ ok: false, reason: "invalid_credentials" });

    const unconfirmed = freshEmail();
    await signUp({ ctx: await publicCtx(), input: { email: unconfirmed, password, name: "Ion", language: "en" } });
    expect(await signIn(unconfirmed, password)).toEqual({ ok: false, reason: "email_unconfirmed" });
    expect(await signIn(unconfirmed, "not the password")).toEqual({ ok: false, reason: "invalid_credentials" });
  });

  it("limits attempts per account: the 11th in 15 minutes is refused without checking the password, from any address", async () => {
    await withFrozenClock(async () => {
      const { email } = await confirmedAccount();
      for (let i = 0; i < 9; i++) expect((await signIn(email, "guess " + i)).ok).toBe(false);
      expect((await signIn(email, password)).ok).toBe(true);
      const verify = vi.mocked(argon2.verify);
      verify.mockClear();
      const refused = await signIn(email, password);
      expect(refused).toMatchObject({ ok: false, reason: "rate_limited" });
      expect(refused.ok === false && refused.reason === "rate_limited" && refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.ok === false && refused.reason === "rate_limited" && refused.retryAfterSeconds).toBeLessThanOrEqual(900);
      expect(verify).not.toHaveBeenCalled();
      // An unknown address is counted the same way, so the limit tells nothing either.
      const unknown = freshEmail();
      for (let i = 0; i < 10; i++) await signIn(unknown, "guess");
      expect(await signIn(unknown, "guess")).toMatchObject({ ok: false, reason: "rate_limited" });
      // Another account is not affected.
      const other = await confirmedAccount();
      expect((await signIn(other.email, password)).ok).toBe(true);
    });
  });

  it("limits attempts per client address: the 51st in 15 minutes is refused, whatever the account", async () => {
    await withFrozenClock(async () => {
      const { email } = await confirmedAccount();
      const address = freshAddress();
      for (let i = 0; i < 50; i++)
        expect(await signIn(freshEmail(), "guess", address)).toEqual({ ok: false, reason: "invalid_credentials" });
      const verify = vi.mocked(argon2.verify);
      verify.mockClear();
      expect(await signIn(email, password, address)).toMatchObject({ ok: false, reason: "rate_limited" });
      expect(verify).not.toHaveBeenCalled();
      expect((await signIn(email, password, freshAddress())).ok).toBe(true);
    });
  });
});
