import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts, agencies, agencyMembers, apiKeys } from "@/db/schema";
import { authenticate } from "@/lib/keys/authenticate";
import { demoEmail, seedSandbox } from "@/lib/seed";
import { devConsoleKeyName, issueDevConsoleKey } from "@/lib/seed/dev-console-key";
import { operatorCtx } from "../support/fixtures";
import { cli } from "./support";

describe("seedSandbox", () => {
  it("creates the demo account, the agency with its three roles and a moderator, once", async () => {
    const ctx = await operatorCtx();
    await seedSandbox({ ctx });
    expect(await seedSandbox({ ctx })).toEqual({ seeded: false, reason: `${demoEmail} exists already` });
    const again = await cli("db:seed");
    expect(again).toMatchObject({ exitCode: 0, result: { seeded: false } });

    const { db } = await database();
    const [demo] = await db.select().from(accounts).where(eq(accounts.email, demoEmail));
    expect(demo).toMatchObject({ confirmed: true, language: "ro", phone: expect.stringMatching(/^\+40/), active: true });
    const members = await db
      .select({ role: agencyMembers.role })
      .from(agencyMembers)
      .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
      .where(eq(agencies.name, "Demo Imobiliare"));
    expect(members.map((member) => member.role).sort()).toEqual(["admin", "agent", "owner"]);
    const moderators = await db.select().from(accounts).where(eq(accounts.isModerator, true));
    expect(moderators.length).toBeGreaterThanOrEqual(1);
  });

  it("gives the demo account a fresh dev console key on each start, revoking the previous one", async () => {
    const ctx = await operatorCtx();
    await seedSandbox({ ctx });
    const first = await issueDevConsoleKey({ ctx });
    const second = await issueDevConsoleKey({ ctx });
    const { db } = await database();
    await expect(authenticate(await database(), second!.key, new Date())).resolves.toMatchObject({
      key: { name: devConsoleKeyName, permissions: ["listings:read", "listings:write", "media:write"] },
    });
    await expect(authenticate(await database(), first!.key, new Date())).rejects.toMatchObject({ code: "unauthenticated" });
    const rows = await db.select().from(apiKeys).where(and(eq(apiKeys.name, devConsoleKeyName), inArray(apiKeys.id, [first!.id, second!.id])));
    expect(rows.filter((row) => row.revokedAt === null).map((row) => row.id)).toEqual([second!.id]);
  });
});
