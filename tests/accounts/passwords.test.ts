import { parseOptions, verify } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accountTokens, accounts, activityLog } from "@/db/schema";
import { changePassword } from "@/lib/domain/accounts/change-password";
import { signInRules } from "@/lib/domain/accounts/internal/limits";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { hashPassword, dummyHash, passwordMatches } from "@/lib/domain/accounts/internal/password";
import { requestPasswordReset } from "@/lib/domain/accounts/request-password-reset";
import { resetPassword } from "@/lib/domain/accounts/reset-password";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { accountContext, operatorContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { withFrozenClock } from "../support/clock";
import { accountWithKey, fixturePassword, fixturePasswordHash } from "../support/fixtures";
import { accountByEmail, confirmedAccount, freshEmail, mailsTo, password, publicCtx, refusal, tokenIn } from "./support";

const newPassword = "a brand new passphrase";

async function actionsOf(accountId: string) {
  const db = await database();
  return (await db.connection.select().from(activityLog).where(eq(activityLog.accountId, accountId))).map((a) => a.action);
}

async function resetMail(email: string) {
  const mails = await mailsTo(email);
  return mails.filter((m) => m.text.includes("/reset-password?token="));
}

describe("requestPasswordReset", () => {
  it("answers the same for an unknown address and mails a 1-hour link only to a known one", async () => {
    const { email, account } = await confirmedAccount({ language: "ro" });
    const unknown = freshEmail();
    const forKnown = await requestPasswordReset({ ctx: await publicCtx(), input: { email: email.toUpperCase() } });
    const forUnknown = await requestPasswordReset({ ctx: await publicCtx(), input: { email: unknown } });
    expect(forKnown).toEqual({ email });
    expect(forUnknown).toEqual({ email: unknown });
    expect(Object.keys(forKnown)).toEqual(Object.keys(forUnknown));

    expect(await mailsTo(unknown)).toEqual([]);
    const [mail] = await resetMail(email);
    expect(mail.subject).toBe("Resetarea parolei");
    expect(mail.text).toContain("60 de minute");
    const token = tokenIn(mail.text, "/reset-password");
    const db = await database();
    const [stored] = await db.connection
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.accountId, account.id))
      .then((rows) => rows.filter((r) => r.purpose === "reset_password"));
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(3_600_000);
  });

  it("mails nothing for an inactive account, and at most 5 links an hour to one address", async () => {
    const { email, account } = await confirmedAccount();
    const db = await database();
    await db.connection.update(accounts).set({ active: false }).where(eq(accounts.id, account.id));
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    expect(await resetMail(email)).toEqual([]);

    await withFrozenClock(async () => {
      const other = await confirmedAccount();
      for (let i = 0; i < 7; i++)
        expect(await requestPasswordReset({ ctx: await publicCtx(), input: { email: other.email } })).toEqual({ email: other.email });
      expect(await resetMail(other.email)).toHaveLength(5);
    });
  });
});

describe("resetPassword", () => {
  it("sets a new argon2id hash, ends sessions, uses up every reset link, confirms the address and tells the account", async () => {
    const { email, account } = await confirmedAccount();
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    const [first, second] = (await resetMail(email)).map((m) => tokenIn(m.text, "/reset-password"));

    expect(await resetPassword({ ctx: await publicCtx(), input: { token: second, password: newPassword } })).toEqual({ email });
    const after = await accountByEmail(email);
    expect(after.sessionGeneration).toBe(account.sessionGeneration + 1);
    expect(after.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(after.passwordHash, newPassword)).toBe(true);
    expect(await verify(after.passwordHash, password)).toBe(false);
    expect(await actionsOf(account.id)).toContain("password.reset");
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Your password was changed");

    // The link used and the older one are both spent.
    for (const token of [second, first])
      expect(await refusal(resetPassword({ ctx: await publicCtx(), input: { token, password: "yet another password" } }))).toEqual([
        { pointer: "/token", code: "invalid_value", reason: "link_used" },
      ]);
    expect((await accountByEmail(email)).sessionGeneration).toBe(account.sessionGeneration + 1);
  });

  it("refuses an expired link, a wrong one and a confirmation link, changing nothing", async () => {
    const { email, account } = await confirmedAccount();
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    const token = tokenIn((await resetMail(email))[0].text, "/reset-password");
    const later = new Date(Date.now() + 3_600_000 + 60_000);
    expect(await refusal(resetPassword({ ctx: await publicCtx(later), input: { token, password: newPassword } }))).toEqual([
      { pointer: "/token", code: "invalid_value", reason: "link_expired" },
    ]);
    expect(await refusal(resetPassword({ ctx: await publicCtx(), input: { token: "b".repeat(43), password: newPassword } }))).toEqual([
      { pointer: "/token", code: "invalid_value", reason: "link_unknown" },
    ]);
    const confirmation = tokenIn((await mailsTo(email))[0].text, "/confirm-email");
    expect(await refusal(resetPassword({ ctx: await publicCtx(), input: { token: confirmation, password: newPassword } }))).toEqual([
      { pointer: "/token", code: "invalid_value", reason: "link_unknown" },
    ]);
    expect(await refusal(resetPassword({ ctx: await publicCtx(), input: { token, password: "short" } }))).toEqual([
      { pointer: "/password", code: "min", reason: undefined },
    ]);
    const after = await accountByEmail(email);
    expect(after.passwordHash).toBe(account.passwordHash);
    expect(after.sessionGeneration).toBe(account.sessionGeneration);
    // Still usable within its hour.
    await resetPassword({ ctx: await publicCtx(), input: { token, password: newPassword } });
  });

  it("confirms an unconfirmed address: the reset link proves the holder reads its mail", async () => {
    const email = freshEmail();
    await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana", language: "en" } });
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    const token = tokenIn((await resetMail(email))[0].text, "/reset-password");
    await resetPassword({ ctx: await publicCtx(), input: { token, password: newPassword } });
    expect((await accountByEmail(email)).confirmed).toBe(true);
  });
});

describe("changePassword", () => {
  const ctxOf = async (accountId: string) => accountContext(await database(), { accountId, agency: null });

  it("changes the password, moves the session generation on, uses up reset links and records password.changed", async () => {
    const { email, account } = await confirmedAccount();
    await requestPasswordReset({ ctx: await publicCtx(), input: { email } });
    const resetToken = tokenIn((await resetMail(email))[0].text, "/reset-password");

    const result = await changePassword({ ctx: await ctxOf(account.id), input: { current_password: password, new_password: newPassword } });
    expect(result).toEqual({ sessionGeneration: account.sessionGeneration + 1 });
    const after = await accountByEmail(email);
    expect(after.sessionGeneration).toBe(account.sessionGeneration + 1);
    expect(await verify(after.passwordHash, newPassword)).toBe(true);
    expect(await actionsOf(account.id)).toContain("password.changed");
    expect((await mailsTo(email)).at(-1)!.subject).toBe("Your password was changed");
    expect(
      await refusal(resetPassword({ ctx: await publicCtx(), input: { token: resetToken, password: "yet another password" } })),
    ).toEqual([{ pointer: "/token", code: "invalid_value", reason: "link_used" }]);

    const again = await changePassword({ ctx: await ctxOf(account.id), input: { current_password: newPassword, new_password: password } });
    expect(again.sessionGeneration).toBe(account.sessionGeneration + 2);
  });

  it("refuses a wrong current password at /current_password and changes nothing", async () => {
    const { email, account } = await confirmedAccount();
    expect(
      await refusal(
        changePassword({ ctx: await ctxOf(account.id), input: { current_password: "not the password", new_password: newPassword } }),
      ),
    ).toEqual([{ pointer: "/current_password", code: "invalid_value", reason: "wrong_password" }]);
    expect(
      await refusal(changePassword({ ctx: await ctxOf(account.id), input: { current_password: password, new_password: "short" } })),
    ).toEqual([{ pointer: "/new_password", code: "min", reason: undefined }]);
    const after = await accountByEmail(email);
    expect(after.passwordHash).toBe(account.passwordHash);
    expect(after.sessionGeneration).toBe(account.sessionGeneration);
    expect(await actionsOf(account.id)).not.toContain("password.changed");
  });

  it("counts guesses of the current password with the account's sign-in attempts: past the limit even the right one is refused", async () => {
    const { account } = await confirmedAccount();
    const ctx = await ctxOf(account.id);
    for (let attempt = 0; attempt < signInRules.account.limit; attempt++) {
      await changePassword({ ctx, input: { current_password: `guess number ${attempt}`, new_password: newPassword } }).catch(
        () => undefined,
      );
    }
    const error = await changePassword({ ctx, input: { current_password: password, new_password: newPassword } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "too_many_requests", params: { reason: "password_attempts" } });
    expect((await accountByEmail(account.email)).passwordHash).toBe(account.passwordHash);
  });

  it("refuses an inactive account as unauthenticated", async () => {
    const { account } = await confirmedAccount();
    const db = await database();
    await db.connection.update(accounts).set({ active: false }).where(eq(accounts.id, account.id));
    const error = await changePassword({
      ctx: await ctxOf(account.id),
      input: { current_password: password, new_password: newPassword },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("unauthenticated");
  });
});

describe("password hashing", () => {
  it("hashes with argon2id, and the dummy hash an unknown address is checked against costs the same", async () => {
    const fresh = await hashPassword("whatever password");
    expect(fresh).toMatch(/^\$argon2id\$/);
    expect(parseOptions(dummyHash)).toEqual(parseOptions(fresh));
  });

  it("the fixtures' precomputed hash is their password's, with today's parameters, and accounts made with it sign in", async () => {
    expect(await verify(fixturePasswordHash, fixturePassword)).toBe(true);
    expect(parseOptions(fixturePasswordHash)).toEqual(parseOptions(await hashPassword("whatever password")));
    const { account } = await accountWithKey();
    const [stored] = await (await database()).connection.select().from(accounts).where(eq(accounts.id, account.id));
    expect(await passwordMatches(stored.passwordHash, fixturePassword)).toBe(true);
    expect(await passwordMatches(stored.passwordHash, "not the password")).toBe(false);
  });

  it("an account is made from a password or a hash, and refused without either", async () => {
    const refused = await createAccount({ ctx: operatorContext(await database()), input: { email: freshEmail() } }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/password", code: "required_without" }] });
    const malformed = await createAccount({
      ctx: operatorContext(await database()),
      input: { email: freshEmail(), passwordHash: "$argon2i$v=19$m=4096,t=3,p=1$c2FsdA$aGFzaA" },
    }).catch((e: unknown) => e);
    expect(malformed).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/passwordHash" }] });
  });
});
