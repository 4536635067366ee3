import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accountTokens, activityLog } from "@/db/schema";
import { confirmEmail } from "@/lib/domain/accounts/confirm-email";
import { resendConfirmation } from "@/lib/domain/accounts/resend-confirmation";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { withFrozenClock } from "../support/clock";
import { accountByEmail, freshEmail, mailsTo, password, publicCtx, refusal, tokenIn } from "./support";

describe("signUp", () => {
  it("creates an unconfirmed account and mails a confirmation link in the chosen language", async () => {
    const email = freshEmail();
    const result = await signUp({
      ctx: await publicCtx(),
      input: { email: email.toUpperCase(), password, name: "Ana Pop", language: "ro" },
    });
    expect(result).toEqual({ email });
    const account = await accountByEmail(email);
    expect(account).toMatchObject({ name: "Ana Pop", language: "ro", confirmed: false, active: true, sessionGeneration: 0 });
    expect(account.passwordHash).toMatch(/^\$argon2id\$/);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Confirmați adresa de e-mail");
    expect(mails[0].text).toContain("Ana Pop");
    expect(mails[0].text).toContain("24 de ore");
    tokenIn(mails[0].text, "/confirm-email");
  });

  it("gives the same answer for an address that has an account, creates nothing and tells that address instead", async () => {
    const known = freshEmail();
    const ctx = await publicCtx();
    await signUp({ ctx, input: { email: known, password, name: "Ana Pop", language: "en" } });
    const before = await accountByEmail(known);

    const unknown = freshEmail();
    const forUnknown = await signUp({ ctx, input: { email: unknown, password: "another password 1", name: "Ion", language: "en" } });
    const forKnown = await signUp({ ctx, input: { email: known, password: "another password 1", name: "Ion", language: "ro" } });
    expect(forKnown).toEqual({ email: known });
    expect(Object.keys(forKnown)).toEqual(Object.keys(forUnknown));

    expect(await accountByEmail(known)).toEqual(before);
    const mails = await mailsTo(known);
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your e-mail address", "Someone tried to sign up with your e-mail address"]);
    // In the account's language, not the one the second sign-up chose; no confirmation link in it.
    expect(mails[1].text).toContain("Hello Ana Pop");
    expect(mails[1].text).toContain("http://localhost:3000/login");
    expect(mails[1].text).toContain("http://localhost:3000/reset-password");
    expect(mails[1].text).not.toContain("token=");
  });

  it("sends at most 5 notices an hour to an address that has an account, answering the same", async () => {
    await withFrozenClock(async () => {
      const known = freshEmail();
      const ctx = await publicCtx();
      await signUp({ ctx, input: { email: known, password, name: "Ana", language: "en" } });
      for (let i = 0; i < 7; i++)
        expect(await signUp({ ctx, input: { email: known, password, name: "Ion", language: "en" } })).toEqual({ email: known });
      expect(await mailsTo(known)).toHaveLength(1 + 5);
    });
  });

  it("refuses a short password, a bad address, a missing name and an unknown language", async () => {
    const ctx = await publicCtx();
    expect(
      await refusal(signUp({ ctx, input: { email: "not-an-address", password: "short", name: " ", language: "de" as "en" } })),
    ).toEqual([
      { pointer: "/email", code: "email", reason: undefined },
      { pointer: "/password", code: "min", reason: undefined },
      { pointer: "/name", code: "min", reason: undefined },
      { pointer: "/language", code: "in", reason: undefined },
    ]);
    expect(await refusal(signUp({ ctx, input: { email: freshEmail(), password: "x".repeat(201), name: "A", language: "en" } }))).toEqual([
      { pointer: "/password", code: "max", reason: undefined },
    ]);
  });
});

describe("confirmEmail", () => {
  it("confirms the account once; the link is stored only as a hash", async () => {
    const email = freshEmail();
    await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana", language: "en" } });
    const token = tokenIn((await mailsTo(email))[0].text, "/confirm-email");
    const account = await accountByEmail(email);

    const db = await database();
    const stored = await db.connection.select().from(accountTokens).where(eq(accountTokens.accountId, account.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].purpose).toBe("confirm_email");
    expect(stored[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored[0].expiresAt.getTime() - stored[0].createdAt.getTime()).toBe(24 * 3_600_000);

    expect(await confirmEmail({ ctx: await publicCtx(), input: { token } })).toEqual({ email });
    expect((await accountByEmail(email)).confirmed).toBe(true);
    const actions = await db.connection.select().from(activityLog).where(eq(activityLog.accountId, account.id));
    expect(actions.map((a) => a.action).sort()).toEqual(["account.confirmed", "account.created"]);

    expect(await refusal(confirmEmail({ ctx: await publicCtx(), input: { token } }))).toEqual([
      { pointer: "/token", code: "invalid_value", reason: "link_used" },
    ]);
  });

  it("refuses an expired link and leaves the account unconfirmed", async () => {
    const email = freshEmail();
    await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana", language: "en" } });
    const token = tokenIn((await mailsTo(email))[0].text, "/confirm-email");
    const later = new Date(Date.now() + 24 * 3_600_000 + 60_000);
    expect(await refusal(confirmEmail({ ctx: await publicCtx(later), input: { token } }))).toEqual([
      { pointer: "/token", code: "invalid_value", reason: "link_expired" },
    ]);
    expect((await accountByEmail(email)).confirmed).toBe(false);
  });

  it("refuses a wrong, mistyped or malformed token", async () => {
    const email = freshEmail();
    await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana", language: "en" } });
    const token = tokenIn((await mailsTo(email))[0].text, "/confirm-email");
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const wrong of [flipped, "a".repeat(43), "", "x", token + "x"]) {
      expect(await refusal(confirmEmail({ ctx: await publicCtx(), input: { token: wrong } })), wrong).toEqual([
        { pointer: "/token", code: "invalid_value", reason: "link_unknown" },
      ]);
    }
    expect((await accountByEmail(email)).confirmed).toBe(false);
  });
});

describe("resendConfirmation", () => {
  it("mails a new link to an unconfirmed account only, answering the same for any address", async () => {
    await withFrozenClock(async () => {
      const email = freshEmail();
      await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana", language: "ro" } });
      const unknown = freshEmail();
      expect(await resendConfirmation({ ctx: await publicCtx(), input: { email: email.toUpperCase() } })).toEqual({ email });
      expect(await resendConfirmation({ ctx: await publicCtx(), input: { email: unknown } })).toEqual({ email: unknown });
      expect(await mailsTo(unknown)).toEqual([]);
      const mails = await mailsTo(email);
      expect(mails.map((m) => m.subject)).toEqual(["Confirmați adresa de e-mail", "Confirmați adresa de e-mail"]);
      const [first, second] = mails.map((m) => tokenIn(m.text, "/confirm-email"));
      expect(second).not.toBe(first);

      await confirmEmail({ ctx: await publicCtx(), input: { token: second } });
      expect((await accountByEmail(email)).confirmed).toBe(true);
      // Confirming with one link used up the other; a confirmed account gets no more links.
      expect(await refusal(confirmEmail({ ctx: await publicCtx(), input: { token: first } }))).toEqual([
        { pointer: "/token", code: "invalid_value", reason: "link_used" },
      ]);
      await resendConfirmation({ ctx: await publicCtx(), input: { email } });
      expect(await mailsTo(email)).toHaveLength(2);

      const limited = freshEmail();
      await signUp({ ctx: await publicCtx(), input: { email: limited, password, name: "Ion", language: "en" } });
      for (let i = 0; i < 7; i++) await resendConfirmation({ ctx: await publicCtx(), input: { email: limited } });
      expect(await mailsTo(limited)).toHaveLength(1 + 5);
    });
  });
});
