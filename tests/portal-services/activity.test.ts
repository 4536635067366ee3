import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { activityActor } from "@/lib/domain/accounts/activity-actor";
import { listActivity } from "@/lib/domain/accounts/list-activity";
import { createKey, createOwnKey } from "@/lib/domain/keys/create-key";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { createdKeys, operatorCtx } from "../support/fixtures";
import { freshAccount, signedIn } from "./support";

describe("listActivity", () => {
  it("lists the account's activity newest first with the stored actor and who it was relative to the viewer", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const own = await createOwnKey({ ctx, input: { name: "CRM", permissions: ["listings:read"], days: 30 } });
    const cli = await createKey({
      ctx: await operatorCtx(),
      input: { accountId: account.id, name: "CLI", permissions: ["listings:read"], days: 30 },
    });
    await revokeKey({ ctx, input: { id: own.id } });
    createdKeys.push(own.key, cli.key);

    const page = await listActivity({ ctx, input: {} });
    expect(page.nextCursor).toBeNull();
    expect(page.items.map(({ action, actor, by, subjectId, details }) => ({ action, actor, by, subjectId, details }))).toEqual([
      { action: "api_key.revoked", actor: `account:${account.id}`, by: { kind: "you" }, subjectId: own.id, details: "CRM" },
      { action: "api_key.created", actor: "operator", by: { kind: "operator" }, subjectId: cli.id, details: "CLI" },
      { action: "api_key.created", actor: `account:${account.id}`, by: { kind: "you" }, subjectId: own.id, details: "CRM" },
      { action: "account.created", actor: "operator", by: { kind: "operator" }, subjectId: null, details: null },
    ]);
    expect(page.items[0].id).toMatch(/^act_/);
    expect(page.items[0].createdAt).toBeInstanceOf(Date);

    const other = await freshAccount();
    expect((await listActivity({ ctx: await signedIn(other), input: {} })).items.map((e) => e.action)).toEqual(["account.created"]);
  });

  it("pages by (created_at, id) to the microsecond: entries one microsecond apart or at one instant are neither skipped nor repeated", async () => {
    const account = await freshAccount();
    const { connection: db } = await database();
    const stamps = [
      "2026-01-01T10:00:00.123001Z",
      "2026-01-01T10:00:00.123002Z",
      "2026-01-01T10:00:00.123002Z",
      "2026-01-01T10:00:00.123002Z",
      "2026-01-01T10:00:00.123003Z",
      "2026-01-01T10:00:00.124000Z",
    ];
    for (const [i, at] of stamps.entries()) {
      await db.execute(
        sql`insert into activity_log (id, account_id, actor, action, details, created_at) values (${newId("activity")}, ${account.id}, 'system', 'test.step', ${String(i)}, ${at}::timestamptz)`,
      );
    }
    const ctx = await signedIn(account);
    for (const limit of [1, 2, 3, 4]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listActivity({ ctx, input: { cursor, limit } });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((e) => e.details ?? e.action));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      // account.created is the newest (now); then the steps, newest first; the three of one instant in id order.
      expect(seen).toHaveLength(7);
      expect(seen[0]).toBe("account.created");
      expect(seen.slice(1, 3)).toEqual(["5", "4"]);
      expect(seen.slice(3, 6).sort()).toEqual(["1", "2", "3"]);
      expect(seen[6]).toBe("0");
    }
  });

  it("refuses a limit out of 1–100 and a cursor it did not give", async () => {
    const ctx = await signedIn(await freshAccount());
    for (const input of [{ limit: 0 }, { limit: 101 }, { cursor: "eyJ0IjoxfQ" }, { cursor: "!!" }]) {
      const error = await listActivity({ ctx, input }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
    }
  });
});

describe("activityActor", () => {
  it("turns a stored actor into what a page shows to the viewing account", () => {
    const me = "acct_0123456789abcdef";
    expect(activityActor(`account:${me}`, me)).toEqual({ kind: "you" });
    expect(activityActor("account:acct_ffffffffffffffff", me)).toEqual({ kind: "other_account", accountId: "acct_ffffffffffffffff" });
    expect(activityActor("api:key_0123456789abcdef", me)).toEqual({ kind: "key", keyId: "key_0123456789abcdef" });
    expect(activityActor("operator", me)).toEqual({ kind: "operator" });
    expect(activityActor("system", me)).toEqual({ kind: "system" });
    expect(activityActor(`moderator:${me}`, me)).toEqual({ kind: "moderator" });
    expect(activityActor("public", me)).toEqual({ kind: "link" });
    for (const odd of ["", "api:", "account", "robot:1", ":x"]) expect(activityActor(odd, me)).toEqual({ kind: "unknown" });
  });
});
