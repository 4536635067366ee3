import { inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { database } from "@/db";
import { sandboxMail } from "@/db/schema";
import { AppError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { applyRetentionRule } from "@/lib/adapters/jobs/retention";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";
import { sendMail } from "@/lib/infra/mail";
import { listOwnSandboxMail, listSandboxMailTo } from "@/lib/infra/mail/list-sandbox-mail";
import { operatorCtx } from "../support/fixtures";
import { freshAccount, signedIn } from "../portal-services/support";
import { restoreEnv, setEnv } from "../support/env";

afterEach(() => {
  restoreEnv();
});

// Real time: on PostgreSQL other files share the table, and their rows are all recent.
const now = new Date();
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const address = () => `${newId("account")}@example.test`;

async function store(rows: { recipient: string; subject: string; text?: string; createdAt: Date }[]) {
  const { connection } = await database();
  await connection.insert(sandboxMail).values(rows.map((row) => ({ text: "", ...row })));
}

/** What the signed-in account reads in its mailbox. */
const own = async (account: Awaited<ReturnType<typeof freshAccount>>, limit = 10) =>
  (await listOwnSandboxMail({ ctx: await signedIn(account), input: { limit } })).map((message) => message.subject);

const notFound = (promise: Promise<unknown>) =>
  expect(promise).rejects.toSatisfy((error) => error instanceof AppError && error.code === "not_found");

describe("listOwnSandboxMail (the mailbox page's service)", () => {
  it("lists the signed-in account's own mail, newest first, up to the limit; never another account's", async () => {
    const [ana, bob] = [await freshAccount(), await freshAccount()];
    await store([
      { recipient: ana.email, subject: "ana old", createdAt: minutesAgo(30) },
      { recipient: bob.email, subject: "bob's reset link", createdAt: minutesAgo(20) },
      { recipient: ana.email, subject: "ana new", createdAt: minutesAgo(10) },
    ]);

    expect(await own(ana)).toEqual(["ana new", "ana old"]);
    expect(await own(ana, 1)).toEqual(["ana new"]);
    expect(await own(bob)).toEqual(["bob's reset link"]);
  });

  it("shows mail to an address without an account to nobody: sendMail keeps it only in the log", async () => {
    setEnv({ SMTP_URL: undefined, APP_ENV: "sandbox" });
    const ana = await freshAccount();
    const stranger = address();
    await sendMail({ to: stranger, subject: "for nobody", text: "https://listings.test/reset?token=secret" });
    await sendMail({ to: ana.email, subject: "for ana", text: "hello" });

    const { connection } = await database();
    expect(
      await connection
        .select()
        .from(sandboxMail)
        .where(inArray(sandboxMail.recipient, [stranger])),
    ).toEqual([]);
    expect(await own(ana)).toEqual(["for ana"]);
    expect((await listSandboxMailTo({ ctx: await operatorCtx(), input: { recipient: stranger, limit: 10 } })).length).toBe(0);
  });

  it("is not found when the mailbox is not in use: SMTP_URL set, or production", async () => {
    const ana = await freshAccount();
    for (const env of [{ SMTP_URL: "smtp://127.0.0.1:2525" }, { APP_ENV: "production", SMTP_URL: undefined }]) {
      setEnv(env);
      await notFound(listOwnSandboxMail({ ctx: await signedIn(ana), input: { limit: 10 } }));
      await notFound(listSandboxMailTo({ ctx: await operatorCtx(), input: { recipient: ana.email, limit: 10 } }));
    }
  });
});

describe("listSandboxMailTo (the operator's mail:list)", () => {
  it("lists one address's mail newest first: the confirmation link of an account that cannot sign in yet", async () => {
    const ana = await freshAccount({ confirmed: false });
    await store([
      {
        recipient: ana.email,
        subject: "Confirm your e-mail",
        text: "https://listings.test/confirm-email?token=a",
        createdAt: minutesAgo(2),
      },
      { recipient: ana.email, subject: "Confirm again", text: "https://listings.test/confirm-email?token=b", createdAt: minutesAgo(1) },
    ]);
    const messages = await listSandboxMailTo({ ctx: await operatorCtx(), input: { recipient: ana.email, limit: 10 } });
    expect(messages.map((message) => message.subject)).toEqual(["Confirm again", "Confirm your e-mail"]);
  });
});

describe("sandbox mailbox retention", () => {
  it("deletes messages older than 7 days", async () => {
    const to = address();
    await store([
      { recipient: to, subject: "day 6", createdAt: new Date(now.getTime() - 6 * 86_400_000) },
      { recipient: to, subject: "day 8", createdAt: new Date(now.getTime() - 8 * 86_400_000) },
    ]);
    const rule = retentionRules.find((candidate) => candidate.name === "sandbox_mail")!;
    expect(rule.keepDays).toBe(7);

    await applyRetentionRule(await database(), { ...rule, where: inArray(sandboxMail.recipient, [to]) }, now);
    const kept = await listSandboxMailTo({ ctx: await operatorCtx(), input: { recipient: to, limit: 10 } });
    expect(kept.map((m) => m.subject)).toEqual(["day 6"]);
  });
});
