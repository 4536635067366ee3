import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { oauthClients, oauthCodes, oauthConnections } from "@/db/schema";
import { applyRetentionRule } from "@/lib/adapters/jobs/retention";
import { retentionRules } from "@/lib/adapters/jobs/retention-rules";
import { newId } from "@/lib/base/ids";
import { unconsentedClientDays } from "@/lib/domain/oauth/retention";
import { challenge, consentCode, freshAccount, freshClient } from "./support";

const day = 86_400_000;

describe("retention of authorization codes", () => {
  it("deletes codes a week after they expired and keeps younger ones, which a replay still needs", async () => {
    const client = await freshClient();
    const account = await freshAccount();
    const now = new Date();
    await consentCode(account.id, client.client_id, { now: new Date(now.getTime() - 8 * day) });
    await consentCode(account.id, client.client_id, { now: new Date(now.getTime() - 6 * day) });
    const rule = retentionRules.find((candidate) => candidate.name === "oauth_codes.expired")!;
    const scoped = { ...rule, where: eq(oauthCodes.accountId, account.id) };
    expect(await applyRetentionRule(await database(), scoped, now)).toMatchObject({ affected: 1, complete: true });
    const { connection: db } = await database();
    const left = await db.select().from(oauthCodes).where(eq(oauthCodes.accountId, account.id));
    expect(left.map((row) => Math.round((now.getTime() - row.expiresAt.getTime()) / day))).toEqual([6]);
  });
});

describe("retention of clients no account connected", () => {
  it(`deletes self-registered and metadata-document clients ${unconsentedClientDays} days after they appeared with no consent, and keeps the others`, async () => {
    const { connection: db } = await database();
    const now = new Date();
    const old = new Date(now.getTime() - (unconsentedClientDays + 1) * day);
    const young = new Date(now.getTime() - (unconsentedClientDays - 1) * day);
    const account = await freshAccount();
    const owned = await freshClient();
    const client = (name: string, registration: "dynamic" | "metadata_document", createdAt: Date) => ({
      id: registration === "dynamic" ? newId("client") : `https://${name}.example.com/${newId("client")}.json`,
      accountId: null,
      name,
      redirectUris: ["http://127.0.0.1:33418/callback"],
      secretHash: null,
      registration,
      createdAt,
    });
    const rows = {
      oldDynamic: client("old dynamic", "dynamic", old),
      oldDocument: client("old-document", "metadata_document", old),
      youngDynamic: client("young dynamic", "dynamic", young),
      connected: client("connected", "dynamic", old),
      disconnected: client("disconnected", "metadata_document", old),
      codePending: client("code pending", "dynamic", old),
    };
    await db.insert(oauthClients).values(Object.values(rows));
    await db.update(oauthClients).set({ createdAt: old }).where(eq(oauthClients.id, owned.client_id));
    await db.insert(oauthConnections).values([
      { accountId: account.id, clientId: rows.connected.id, scope: ["listings:read"] },
      { accountId: account.id, clientId: rows.disconnected.id, scope: ["listings:read"], disconnectedAt: old },
    ]);
    await db.insert(oauthCodes).values({
      id: newId("authorizationCode"),
      codeHash: newId("authorizationCode"),
      clientId: rows.codePending.id,
      accountId: account.id,
      redirectUri: "http://127.0.0.1:33418/callback",
      scope: ["listings:read"],
      codeChallenge: challenge,
      expiresAt: new Date(now.getTime() + 60_000),
    });

    const ids = [...Object.values(rows).map((row) => row.id), owned.client_id];
    const rule = retentionRules.find((candidate) => candidate.name === "oauth_clients.unconsented")!;
    // Scoped to this test's clients: on PostgreSQL the run's other files share the table.
    const scoped = { ...rule, where: and(rule.where, inArray(oauthClients.id, ids)) };
    expect(await applyRetentionRule(await database(), scoped, now)).toMatchObject({ affected: 2, complete: true });
    const left = await db.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, ids));
    expect(left.map((row) => row.id).sort()).toEqual(
      [rows.youngDynamic.id, rows.connected.id, rows.disconnected.id, rows.codePending.id, owned.client_id].sort(),
    );
  });
});
