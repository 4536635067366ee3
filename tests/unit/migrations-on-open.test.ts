import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseSettings, resetConfig } from "@/lib/base/config";
import { restoreEnv } from "../support/env";

/** What opening the database does about migrations, by environment (release-step.test.ts runs it on PostgreSQL). */
const migrationsWith = (env: Record<string, string | undefined>) => {
  for (const [name, value] of Object.entries({ DATABASE_URL: undefined, MIGRATE_ON_START: undefined, ...env })) vi.stubEnv(name, value);
  resetConfig();
  return databaseSettings().migrations;
};

afterEach(() => {
  restoreEnv();
});

const url = "postgres://app@db:5432/listings";

describe("migrations on opening the database", () => {
  it("production on PostgreSQL only verifies the schema, unless MIGRATE_ON_START=1", () => {
    expect(migrationsWith({ APP_ENV: "production", DATABASE_URL: url })).toBe("verify");
    expect(migrationsWith({ APP_ENV: "production", DATABASE_URL: url, MIGRATE_ON_START: "0" })).toBe("verify");
    expect(migrationsWith({ APP_ENV: "production", DATABASE_URL: url, MIGRATE_ON_START: "1" })).toBe("apply");
  });

  it("the embedded database and the sandbox migrate, as before", () => {
    expect(migrationsWith({ APP_ENV: "production", PGLITE_DIR: ".data/pglite" })).toBe("apply");
    expect(migrationsWith({ APP_ENV: "sandbox", DATABASE_URL: url })).toBe("apply");
    expect(migrationsWith({ APP_ENV: "sandbox" })).toBe("apply");
  });

  it("refuses a MIGRATE_ON_START other than 0 or 1", () => {
    expect(() => migrationsWith({ APP_ENV: "production", DATABASE_URL: url, MIGRATE_ON_START: "yes" })).toThrow("MIGRATE_ON_START");
  });
});
