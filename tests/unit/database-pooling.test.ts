import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseSettings, resetConfig } from "@/lib/base/config";
import { restoreEnv } from "../support/env";

/** The database settings the process opens with, by environment (the pooler itself: tests/faults/unreachable-at-start.test.ts). */
const settingsWith = (env: Record<string, string | undefined>) => {
  for (const [name, value] of Object.entries({
    DATABASE_URL: undefined,
    DATABASE_URL_UNPOOLED: undefined,
    DATABASE_POOLING: undefined,
    ...env,
  }))
    vi.stubEnv(name, value);
  resetConfig();
  const { url, directUrl, pooling } = databaseSettings();
  return { url, directUrl, pooling };
};

afterEach(() => {
  restoreEnv();
});

const pooler = "postgres://app@pooler:6432/listings";
const direct = "postgres://app@db:5432/listings";

describe("what DATABASE_URL is", () => {
  it("a transaction pooler when DATABASE_URL_UNPOOLED names another address (Neon's and Vercel's pair)", () => {
    expect(settingsWith({ DATABASE_URL: pooler, DATABASE_URL_UNPOOLED: direct })).toEqual({
      url: pooler,
      directUrl: direct,
      pooling: "transaction",
    });
  });

  it("a session when there is no second address, or the same one twice", () => {
    expect(settingsWith({ DATABASE_URL: direct }).pooling).toBe("session");
    expect(settingsWith({ DATABASE_URL: direct, DATABASE_URL_UNPOOLED: direct }).pooling).toBe("session");
  });

  it("as DATABASE_POOLING says when it is set, and refuses another value", () => {
    expect(settingsWith({ DATABASE_URL: pooler, DATABASE_URL_UNPOOLED: direct, DATABASE_POOLING: "session" }).pooling).toBe("session");
    expect(settingsWith({ DATABASE_URL: pooler, DATABASE_POOLING: "transaction" }).pooling).toBe("transaction");
    expect(() => settingsWith({ DATABASE_URL: pooler, DATABASE_POOLING: "statement" })).toThrow("DATABASE_POOLING");
  });
});
