import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { database } from "@/db";
import { accounts, agencyMembers } from "@/db/schema";
import { sessionAccount } from "@/lib/domain/accounts/session-account";
import { listAgencyMembers } from "@/lib/domain/accounts/list-agency-members";
import { setAccountLanguage } from "@/lib/domain/accounts/set-account-language";
import { publicContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { accountWithKey, call } from "../support/fixtures";
import { appErrorCode, freshAccount, signedIn } from "./support";

/** An agency whose members joined agent, admin, owner, agent (in that order), one of them unconfirmed. */
async function agency() {
  const name = `Agenția ${newId("agency")}`;
  const agentA = await freshAccount({ name: "Zoe Agent", agency: name, role: "agent" });
  const admin = await freshAccount({ name: "Ion Admin", agency: name, role: "admin", confirmed: false });
  const owner = await freshAccount({ name: "Maria Owner", agency: name, role: "owner" });
  const agentB = await freshAccount({ name: "Ana Agent", agency: name, role: "agent" });
  return { name, agentA, admin, owner, agentB };
}

describe("listAgencyMembers", () => {
  it("shows an owner and an admin the agency's members, owners first, then admins, then agents by joining date", async () => {
    const { name, agentA, admin, owner, agentB } = await agency();
    for (const viewer of [owner, admin]) {
      const listed = await listAgencyMembers({ ctx: await signedIn(viewer) });
      expect(listed.agency).toEqual({ id: owner.agency!.id, name });
      expect(listed.members.map((m) => [m.accountId, m.role])).toEqual([
        [owner.id, "owner"],
        [admin.id, "admin"],
        [agentA.id, "agent"],
        [agentB.id, "agent"],
      ]);
      expect(listed.members[1]).toEqual({
        accountId: admin.id,
        name: "Ion Admin",
        email: admin.email,
        role: "admin",
        confirmed: false,
        joinedAt: expect.any(Date),
      });
      expect(listed.members[0].confirmed).toBe(true);
    }
    // Another agency's members never show.
    const other = await agency();
    expect((await listAgencyMembers({ ctx: await signedIn(other.owner) })).members.map((m) => m.accountId)).not.toContain(owner.id);
  });

  it("refuses an agent, an account without an agency, and a session whose membership has ended", async () => {
    const { agentA, admin } = await agency();
    expect(await appErrorCode(listAgencyMembers({ ctx: await signedIn(agentA) }))).toBe("forbidden");
    expect(await appErrorCode(listAgencyMembers({ ctx: await signedIn(await freshAccount()) }))).toBe("forbidden");
    const { connection: db } = await database();
    await db.update(agencyMembers).set({ role: "agent" }).where(eq(agencyMembers.accountId, admin.id));
    expect(await appErrorCode(listAgencyMembers({ ctx: await signedIn(admin) }))).toBe("forbidden");
  });
});

describe("setAccountLanguage", () => {
  it("stores the language, and the next API request of the account's key answers in it", async () => {
    const { account, key } = await accountWithKey({ account: { locale: "ro" } });
    const ctx = await signedIn(account);
    expect((await call(ping, { path: "/ping", key, headers: { "accept-language": "en" } })).headers.get("content-language")).toBe("ro");

    expect(await setAccountLanguage({ ctx, input: { language: "en" } })).toEqual({ language: "en" });
    expect((await call(ping, { path: "/ping", key, headers: { "accept-language": "ro" } })).headers.get("content-language")).toBe("en");
    // The portal reads it with the session's account.
    const [{ sessionGeneration }] = await (
      await database()
    ).connection
      .select({ sessionGeneration: accounts.sessionGeneration })
      .from(accounts)
      .where(eq(accounts.id, account.id));
    expect(
      (await sessionAccount({ ctx: publicContext(await database()), input: { accountId: account.id, sessionGeneration } }))?.language,
    ).toBe("en");
    // `?locale=` still comes first.
    expect((await call(ping, { path: "/ping?locale=ro", key })).headers.get("content-language")).toBe("ro");

    await setAccountLanguage({ ctx, input: { language: "ro" } });
    expect((await call(ping, { path: "/ping", key })).headers.get("content-language")).toBe("ro");
  });

  it("refuses a language other than ro and en, and changes no other account", async () => {
    const mine = await freshAccount({ locale: "ro" });
    const other = await freshAccount({ locale: "ro" });
    const error = await setAccountLanguage({ ctx: await signedIn(mine), input: { language: "de" as "en" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([{ pointer: "/language", code: "in", params: { values: "ro, en" } }]);
    await setAccountLanguage({ ctx: await signedIn(mine), input: { language: "en" } });
    const { connection: db } = await database();
    const [row] = await db.select({ language: accounts.language }).from(accounts).where(eq(accounts.id, other.id));
    expect(row.language).toBe("ro");
  });
});
