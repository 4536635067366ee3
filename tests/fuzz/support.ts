import { and, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import fc from "fast-check";
import { expect } from "vitest";
import { database } from "@/db";
import { apiKeys, events, idempotencyKeys, listings } from "@/db/schema";
import { createKey } from "@/lib/domain/keys/create-key";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { accountWithKey, allPermissions, call, operatorCtx } from "../support/fixtures";

/**
 * Runs of each property: a bounded number in `npm test`, more with `FUZZ_RUNS=N`. The seed is fixed
 * (`FUZZ_SEED` chooses another), so a run is repeatable and a failure names its counterexample.
 */
export const fuzzRuns = (defaultRuns: number): number => {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
};

const seed = Number.isInteger(Number(process.env.FUZZ_SEED)) && process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261123;

export const fuzzParameters = (defaultRuns: number): fc.Parameters<unknown> => ({
  seed,
  numRuns: fuzzRuns(defaultRuns),
  endOnFailure: true,
});

/** Property tests may take longer than the suite's default per test; the runs are bounded. */
export const fuzzTimeout = (defaultRuns: number, perRunMs: number) => Math.max(60_000, fuzzRuns(defaultRuns) * perRunMs * 3);

export type Answer = Awaited<ReturnType<typeof call>>;

/**
 * One account whose key is replaced before the real limit of 300 requests per minute, so a long
 * run never meets a 429 (counted in memory or in Redis alike). Its writes are counted across keys.
 */
export class FuzzAccount {
  private constructor(
    readonly accountId: string,
    private current: { key: string; keyId: string },
    private used = 0,
  ) {}

  static async create(): Promise<FuzzAccount> {
    const { account, key, keyId } = await accountWithKey({ account: { locale: "en" } });
    return new FuzzAccount(account.id, { key, keyId });
  }

  /** The key for the next request. */
  async key(): Promise<string> {
    if (++this.used > 200) {
      const ctx = await operatorCtx();
      const created = await createKey({
        ctx,
        input: { accountId: this.accountId, name: "fuzz key", permissions: allPermissions, days: 30 },
      });
      await revokeAnyKey({ ctx, input: { id: this.current.keyId } });
      this.current = { key: created.key, keyId: created.id };
      this.used = 1;
    }
    return this.current.key;
  }

  /** Listings, events and idempotency records of the account: what a write leaves behind. */
  async writes(): Promise<{ listings: number; events: number; idempotency: number }> {
    const { connection: db } = await database();
    const keyIds = db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.accountId, this.accountId));
    const counted = (query: { getSQL(): SQL }) => sql<number>`(${query})`.mapWith(Number);
    const [row] = await db
      .select({
        listings: counted(db.select({ n: count() }).from(listings).where(eq(listings.accountId, this.accountId))),
        events: counted(db.select({ n: count() }).from(events).where(eq(events.accountId, this.accountId))),
        idempotency: counted(db.select({ n: count() }).from(idempotencyKeys).where(inArray(idempotencyKeys.keyId, keyIds))),
      })
      .from(sql`(select 1) as one`);
    return row;
  }

  async hasRef(ref: string): Promise<boolean> {
    const { connection: db } = await database();
    const [row] = await db
      .select({ id: listings.id })
      .from(listings)
      .where(and(eq(listings.accountId, this.accountId), eq(listings.externalRef, ref)));
    return row !== undefined;
  }
}

/**
 * What every answer must be: never a 5xx; every answer carries `X-Request-Id`; every error is
 * problem+json with its status and a code (or `errors[]` for a 422).
 */
export function expectSound(res: Answer, what: string): void {
  const context = `${what} → ${res.status} ${res.text.slice(0, 500)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.headers.get("x-request-id"), context).toMatch(/\S/);
  if (res.status < 400) return;
  expect(res.headers.get("content-type"), context).toContain("application/problem+json");
  expect(res.json, context).toMatchObject({
    status: res.status,
    type: expect.any(String),
    title: expect.any(String),
    code: expect.any(String),
  });
  if (res.json!.errors !== undefined) {
    expect(res.json!.errors, context).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: expect.any(String), code: expect.any(String) })]),
    );
  }
}

/** The errors of a 422 as pointer and code, the part of an answer that is stable. */
export const errorKeys = (res: Answer) =>
  ((res.json?.errors ?? []) as { pointer: string; code: string; in?: string }[])
    .map((e) => `${e.in ?? "body"} ${e.pointer} ${e.code}`)
    .sort();

/** A short description of a body for failure messages: a 1 MB string would drown the report. */
export const describeBody = (body: unknown): string => {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
};
