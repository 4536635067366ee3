import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { apiKeys, oauthClients, oauthConnections } from "@/db/schema";
import { createKey, createOwnKey, issueKey, maxKeysPerAccount } from "@/lib/domain/keys/create-key";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { systemContext, withTransaction } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { createdKeys, operatorCtx } from "../support/fixtures";
import { appErrorCode, freshAccount, signedIn } from "./support";

async function connectApp(accountId: string, appName: string) {
  const { connection: db } = await database();
  const owner = await freshAccount();
  const clientId = newId("client");
  await db
    .insert(oauthClients)
    .values({ id: clientId, accountId: owner.id, name: appName, redirectUris: ["https://app.example/cb"], secretHash: "0".repeat(64) });
  const [connection] = await db
    .insert(oauthConnections)
    .values({ accountId, clientId, scope: ["listings:read"] })
    .returning();
  return connection.id;
}

describe("listOwnKeys", () => {
  it("lists the account's keys newest first with their prefix, status, origin and the usable count against the limit", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const first = await createOwnKey({ ctx, input: { name: "CRM", permissions: ["listings:read", "listings:write"], days: 90 } });
    const byOperator = await createKey({
      ctx: await operatorCtx(),
      input: { accountId: account.id, name: "CLI", permissions: ["listings:read"], days: 30 },
    });
    const connectionId = await connectApp(account.id, "Agency CRM Pro");
    const { connection: db } = await database();
    const fromApp = await withTransaction(systemContext(await database()), (tx) =>
      issueKey(tx, { accountId: account.id, name: "Agency CRM Pro", permissions: ["listings:read"], days: 365, connectionId }),
    );
    const expired = await createOwnKey({ ctx, input: { name: "old", permissions: ["media:write"], days: 30 } });
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.id));
    const revoked = await createOwnKey({ ctx, input: { name: "gone", permissions: ["listings:read"], days: 30 } });
    await revokeKey({ ctx, input: { id: revoked.id } });
    createdKeys.push(first.key, byOperator.key, fromApp.key, expired.key, revoked.key);

    const listed = await listOwnKeys({ ctx: await signedIn(account) });
    expect(listed.keys.map((k) => k.id)).toEqual([revoked.id, expired.id, fromApp.id, byOperator.id, first.id]);
    expect(listed.keys.map((k) => k.status)).toEqual(["revoked", "expired", "active", "active", "active"]);
    expect(listed.usable).toBe(3);
    expect(listed.limit).toBe(maxKeysPerAccount);
    expect(listed.limit).toBe(10);

    const crm = listed.keys.find((k) => k.id === first.id)!;
    expect(crm).toMatchObject({
      name: "CRM",
      displayPrefix: `${first.id}|svc_test_…`,
      permissions: ["listings:read", "listings:write"],
      environment: "sandbox",
      lastUsedAt: null,
      revokedAt: null,
      origin: { kind: "account" },
    });
    expect(crm.expiresAt.getTime() - crm.createdAt.getTime()).toBeGreaterThan(89 * 86_400_000);
    expect(listed.keys.find((k) => k.id === byOperator.id)!.origin).toEqual({ kind: "account" });
    expect(listed.keys.find((k) => k.id === fromApp.id)!.origin).toEqual({ kind: "app", connectionId, appName: "Agency CRM Pro" });
    expect(listed.keys.find((k) => k.id === revoked.id)!.revokedAt).toBeInstanceOf(Date);

    // Nothing of a secret, nor its hash, leaves the service.
    const text = JSON.stringify(listed);
    for (const key of [first, byOperator, fromApp, expired, revoked]) expect(text).not.toContain(key.key.split("|")[1]);
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });

  it("counts as the creation limit counts: at 10 usable keys the next one is refused", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    for (let i = 0; i < maxKeysPerAccount; i++) {
      createdKeys.push((await createOwnKey({ ctx, input: { name: `k${i}`, permissions: ["listings:read"], days: 30 } })).key);
    }
    const listed = await listOwnKeys({ ctx });
    expect(listed).toMatchObject({ usable: 10, limit: 10 });
    expect(await appErrorCode(createOwnKey({ ctx, input: { name: "eleventh", permissions: ["listings:read"], days: 30 } }))).toBe(
      "limit_reached",
    );
    await revokeKey({ ctx, input: { id: listed.keys[0].id } });
    expect((await listOwnKeys({ ctx })).usable).toBe(9);
  });

  it("shows only the signed-in account's keys, and a key expires by the context's clock", async () => {
    const mine = await freshAccount();
    const other = await freshAccount();
    const key = await createOwnKey({ ctx: await signedIn(mine), input: { name: "mine", permissions: ["listings:read"], days: 30 } });
    createdKeys.push(key.key);
    createdKeys.push(
      (await createOwnKey({ ctx: await signedIn(other), input: { name: "theirs", permissions: ["listings:read"], days: 30 } })).key,
    );
    expect((await listOwnKeys({ ctx: await signedIn(mine) })).keys.map((k) => k.name)).toEqual(["mine"]);
    expect((await listOwnKeys({ ctx: await signedIn(await freshAccount()) })).keys).toEqual([]);

    const later = await listOwnKeys({ ctx: await signedIn(mine, new Date(key.expiresAt.getTime())) });
    expect(later.keys[0].status).toBe("expired");
    expect(later.usable).toBe(0);
  });
});
