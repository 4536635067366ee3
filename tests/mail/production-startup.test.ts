import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { configureDatabase, database } from "@/db";
import { databaseSettings, resetConfig } from "@/lib/platform/config";
import { prepareServer } from "@/lib/platform/startup";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

// prepareServer gives the database its settings; the file's database (already open) keeps the test's.
afterAll(() => configureDatabase(() => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE })));

async function startUpLog(env: Record<string, string | undefined>): Promise<Record<string, unknown>[]> {
  await database();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  await prepareServer();
  vi.mocked(process.stderr.write).mockRestore();
  return lines;
}

describe("a production server's start-up and mail", () => {
  it("without SMTP_URL says in one line that mail is not configured", async () => {
    const lines = await startUpLog({ APP_ENV: "production", SMTP_URL: undefined, LOG_LEVEL: "info" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn" });
    expect(lines[0].message).toMatch(/mail is not configured: set SMTP_URL/);
  });

  it("with SMTP_URL says nothing about mail", async () => {
    const lines = await startUpLog({ APP_ENV: "production", SMTP_URL: "smtp://mail.example.test:587", LOG_LEVEL: "info" });
    expect(lines.filter((line) => String(line.message).includes("mail"))).toEqual([]);
  });
});
