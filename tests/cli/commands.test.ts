import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts, activityLog, agencyMembers } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { authenticate } from "@/lib/domain/keys/authenticate";
import { sendMail } from "@/lib/infra/mail";
import { cli, text } from "./support";

const email = () => `${newId("account")}@example.test`;

async function accountByCli(extra: string[] = []) {
  const address = email();
  const run = await cli("account:create", "--email", address, "--password", "correct horse battery", ...extra);
  expect(run.exitCode).toBe(0);
  return { email: address, id: text(run.result, "id"), result: run.result! };
}

describe("account:create", () => {
  it("creates a confirmed account and prints it as JSON on stdout", async () => {
    const address = email();
    const run = await cli(
      "account:create",
      "--email",
      address.toUpperCase(),
      "--password",
      "correct horse battery",
      "--name",
      "Ana",
      "--phone",
      "0721 234 567",
      "--locale",
      "en",
    );
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({ id: expect.stringMatching(/^acct_/), email: address, name: "Ana", moderator: false });
    const [row] = await (
      await database()
    ).connection
      .select()
      .from(accounts)
      .where(eq(accounts.id, text(run.result, "id")));
    expect(row).toMatchObject({ confirmed: true, language: "en", phone: "+40721234567", isModerator: false });
  });

  it("adds the account to an agency with its role, and makes moderators", async () => {
    const agency = `Agency ${newId("agency")}`;
    const owner = await accountByCli(["--agency", agency, "--role", "owner"]);
    expect(owner.result.agency).toMatchObject({ name: agency, role: "owner" });
    const moderator = await accountByCli(["--moderator"]);
    expect(moderator.result.moderator).toBe(true);
    const { connection: db } = await database();
    const [member] = await db.select().from(agencyMembers).where(eq(agencyMembers.accountId, owner.id));
    expect(member.role).toBe("owner");
    const [row] = await db.select().from(accounts).where(eq(accounts.id, moderator.id));
    expect(row.isModerator).toBe(true);
  });

  it("refuses bad input with a JSON error on stderr and exit code 2", async () => {
    const run = await cli("account:create", "--email", "not-an-email", "--password", "short", "--role", "chief");
    expect(run).toMatchObject({ exitCode: 2, stdout: "" });
    expect(run.error).toEqual({
      code: "validation_failed",
      detail: expect.any(String),
      errors: expect.arrayContaining([
        { pointer: "/email", code: "email", detail: expect.any(String) },
        { pointer: "/password", code: "min", detail: "Below the minimum of 10 characters." },
        { pointer: "/role", code: "in", detail: expect.stringContaining("owner") },
      ]),
    });
  });

  it("refuses an e-mail address that is already registered", async () => {
    const { email: taken } = await accountByCli();
    const run = await cli("account:create", "--email", taken, "--password", "correct horse battery");
    expect(run.exitCode).toBe(2);
    expect(run.error).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/email", code: "invalid_value" }] });
  });
});

describe("key:create and key:revoke", () => {
  it("prints a key that authenticates with the permissions asked for, and logs its creation", async () => {
    const account = await accountByCli();
    const run = await cli(
      "key:create",
      "--email",
      account.email,
      "--name",
      "CRM",
      "--permissions",
      "listings:read, media:write",
      "--days",
      "90",
    );
    expect(run.exitCode).toBe(0);
    expect(run.result).toEqual({
      key: expect.stringMatching(/^key_[0-9a-z]{16}\|svc_test_[A-Za-z0-9]{40}$/),
      id: expect.stringMatching(/^key_/),
      name: "CRM",
      permissions: ["listings:read", "media:write"],
      environment: "sandbox",
      expires_at: expect.any(String),
    });
    expect(text(run.result, "key").startsWith(`${text(run.result, "id")}|`)).toBe(true);
    const days = (Date.parse(text(run.result, "expires_at")) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);

    const principal = await authenticate(await database(), text(run.result, "key"), new Date());
    expect(principal).toMatchObject({
      key: { id: text(run.result, "id"), permissions: ["listings:read", "media:write"] },
      account: { id: account.id },
    });
    const log = await (
      await database()
    ).connection
      .select()
      .from(activityLog)
      .where(eq(activityLog.subjectId, text(run.result, "id")));
    expect(log).toMatchObject([{ action: "api_key.created", actor: "operator" }]);
  });

  it("revokes a key so that it no longer authenticates", async () => {
    const account = await accountByCli();
    const created = await cli("key:create", "--email", account.email, "--name", "CRM", "--permissions", "listings:read", "--days", "30");
    const run = await cli("key:revoke", "--id", text(created.result, "id"));
    expect(run.exitCode).toBe(0);
    expect(run.result).toEqual({ id: text(created.result, "id"), revoked_at: expect.any(String) });
    await expect(authenticate(await database(), text(created.result, "key"), new Date())).rejects.toMatchObject({
      code: "unauthenticated",
    });
  });

  it("refuses unknown permissions, other validities and unknown e-mail addresses", async () => {
    const bad = await cli(
      "key:create",
      "--email",
      email(),
      "--name",
      "CRM",
      "--permissions",
      "listings:read,listings:delete",
      "--days",
      "31",
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.error!.errors).toEqual([
      { pointer: "/permissions/1", code: "in", detail: "Must be one of: listings:read, listings:write, media:write." },
      { pointer: "/days", code: "in", detail: "Must be one of: 30, 90, 365." },
    ]);
    const unknown = await cli("key:create", "--email", email(), "--name", "CRM", "--permissions", "listings:read", "--days", "30");
    expect(unknown.exitCode).toBe(2);
    expect(unknown.error!.errors).toMatchObject([
      { pointer: "/email", code: "invalid_value", reason: "unknown_account_email", detail: "No account has this e-mail address." },
    ]);
  });

  it("answers not_found for a key that does not exist", async () => {
    const run = await cli("key:revoke", "--id", "key_0000000000000000");
    expect(run).toMatchObject({ exitCode: 2, error: { code: "not_found" } });
  });
});

describe("the command line itself", () => {
  it("lists the commands when the command is unknown or missing", async () => {
    for (const argv of [["account:delete"], []]) {
      const run = await cli(...argv);
      expect(run).toMatchObject({ exitCode: 2, stdout: "", error: { code: "unknown_command" } });
      expect(run.error!.commands!.map((command) => command.name)).toEqual(
        expect.arrayContaining(["account:create", "key:create", "key:revoke", "jobs:run", "db:migrate", "db:seed"]),
      );
    }
  });

  it("refuses flags a command does not take and missing required flags", async () => {
    const run = await cli("key:revoke", "--key", "x");
    expect(run.exitCode).toBe(2);
    expect(run.error!.errors).toEqual([{ pointer: "/key", code: "unknown_parameter", detail: "Unknown parameter." }]);
    const missing = await cli("key:revoke");
    expect(missing.error!.errors).toEqual([{ pointer: "/id", code: "required", detail: "This field is required." }]);
  });

  it("runs the due jobs once and migrates", async () => {
    const jobs = await cli("jobs:run");
    expect(jobs).toMatchObject({ exitCode: 0, result: { ran: expect.any(Number), failed: 0 } });
    const migrate = await cli("db:migrate");
    // The file's database is migrated already: nothing pending, nothing applied.
    expect(migrate).toMatchObject({ exitCode: 0, result: { migrated: true, applied: [], migrations: expect.any(Number) } });
    expect(migrate.result!.migrations as number).toBeGreaterThan(0);
  });
});

describe("mail:list", () => {
  it("prints one address's mail in the sandbox mailbox, newest first", async () => {
    const { email: address } = await accountByCli();
    await sendMail({ to: address, subject: "Confirm your e-mail", text: "https://listings.test/confirm-email?token=abc" });
    const run = await cli("mail:list", "--to", address);
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({
      messages: [
        {
          id: expect.any(Number),
          to: address,
          subject: "Confirm your e-mail",
          text: "https://listings.test/confirm-email?token=abc",
          created_at: expect.any(String),
        },
      ],
    });
    expect((await cli("mail:list", "--to", email())).result).toEqual({ messages: [] });
  });
});
