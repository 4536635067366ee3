import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { onPostgresRun } from "../support/engine";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
/** Nothing listens on port 1: the connection is refused at once. */
const unreachableUrl = "postgres://operator:s3cret-pw@127.0.0.1:1/none";

function run(
  args: string[],
  env: Record<string, string | undefined> = { DATABASE_URL: unreachableUrl, DATABASE_URL_UNPOOLED: undefined },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, args, {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info", APP_ENV: "sandbox", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("DATABASE_URL unreachable at start", () => {
  it("the server's start-up prints one line naming DATABASE_URL, without the password, and exits non-zero", async () => {
    const { code, stderr, stdout } = await run([path.join(root, "tests/faults/support/prepare-server.ts")]);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: "error",
      message: expect.stringContaining("DATABASE_URL points to postgres://operator@127.0.0.1:1/none"),
    });
    expect(lines[0]).toContain("ECONNREFUSED");
    expect(stderr).not.toContain("s3cret-pw");
  });

  it("the CLI answers its JSON error naming DATABASE_URL, without the password, and exits 1", async () => {
    const { code, stderr, stdout } = await run([path.join(root, "scripts/cli.ts"), "db:migrate"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const { error } = JSON.parse(stderr) as { error: { code: string; detail: string } };
    expect(error.code).toBe("database_unreachable");
    expect(error.detail).toContain("DATABASE_URL points to postgres://operator@127.0.0.1:1/none");
    expect(error.detail).toContain("ECONNREFUSED");
    expect(stderr).not.toContain("s3cret-pw");
  });

  it("read replicas without DATABASE_URL: one line saying the embedded database has none, exit 1", async () => {
    const line = await startUpRefusal({
      DATABASE_URL: undefined,
      DATABASE_URL_UNPOOLED: undefined,
      DATABASE_REPLICA_URLS: "postgres://app:s3cret-pw@127.0.0.1:5433/listings",
    });
    expect(line.message).toContain("DATABASE_REPLICA_URLS is set but DATABASE_URL is not");
    expect(line.message).not.toContain("s3cret-pw");
  });
});

/** The one line the server's start-up logs before it exits, parsed. */
async function startUpRefusal(env: Record<string, string | undefined>) {
  const { code, stderr, stdout } = await run([path.join(root, "tests/faults/support/prepare-server.ts")], env);
  expect(code).toBe(1);
  expect(stdout).toBe("");
  const lines = stderr.split("\n").filter((line) => line.trim() !== "");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]) as { level: string; message: string };
}

const server = new URL(process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
describe.skipIf(!onPostgresRun)(
  `a PostgreSQL server that refuses the session at start${onPostgresRun ? "" : " (skipped: npm run test:pg runs it)"}`,
  () => {
    it("a database that does not exist: one line saying so, exit 1", async () => {
      const missing = new URL(server);
      missing.pathname = "/no_such_database_here";
      const line = await startUpRefusal({ DATABASE_URL: missing.toString(), DATABASE_URL_UNPOOLED: undefined });
      expect(line.level).toBe("error");
      expect(line.message).toContain("3D000 (the database does not exist)");
      expect(line.message).toContain("/no_such_database_here");
    });

    it("a role that does not exist: one line saying so, exit 1", async () => {
      const stranger = new URL(server);
      stranger.username = "no_such_role_here";
      const line = await startUpRefusal({ DATABASE_URL: stranger.toString(), DATABASE_URL_UNPOOLED: undefined });
      expect(line.message).toContain("28000 (the role does not exist or may not connect)");
    });
  },
);

const pooled = Boolean(process.env.DATABASE_URL_UNPOOLED);
describe.skipIf(!pooled)(
  `a transaction-mode pooler the settings do not name${pooled ? "" : " (skipped: npm run test:pg runs it through PgBouncer)"}`,
  () => {
    it("is found by the start-up probe, which says what to set and exits 1", async () => {
      const line = await startUpRefusal({ DATABASE_URL: process.env.DATABASE_URL, DATABASE_URL_UNPOOLED: undefined });
      expect(line.message).toContain("DATABASE_URL is a transaction-mode pooler");
      expect(line.message).toContain("DATABASE_POOLING=transaction");
    });

    it("named as one without its direct address: one line asking for DATABASE_URL_UNPOOLED, exit 1", async () => {
      const line = await startUpRefusal({
        DATABASE_URL: process.env.DATABASE_URL,
        DATABASE_URL_UNPOOLED: undefined,
        DATABASE_POOLING: "transaction",
      });
      expect(line.message).toContain("DATABASE_URL_UNPOOLED is not set");
    });
  },
);
