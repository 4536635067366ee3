import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { checkStartUp } from "@/lib/adapters/startup";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

/** Starts the server with `env`; what it logs goes into `lines`, also when start-up stops. */
async function startUpLog(
  env: Record<string, string | undefined>,
  lines: Record<string, unknown>[] = [],
): Promise<Record<string, unknown>[]> {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  try {
    checkStartUp();
  } finally {
    vi.mocked(process.stderr.write).mockRestore();
  }
  return lines;
}

const secret = "a-production-session-secret-of-32-characters-or-more";
const encryptionKeys = `k1:${Buffer.alloc(32, 7).toString("base64")}`;

describe("a production server's start-up and mail", () => {
  it("without AUTH_SECRET says so in one line and stops (portal sessions would not survive a restart)", async () => {
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const lines: Record<string, unknown>[] = [];
    await expect(startUpLog({ APP_ENV: "production", AUTH_SECRET: undefined, LOG_LEVEL: "info" }, lines)).rejects.toThrow("exit 1");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error" });
    expect(lines[0].message).toMatch(/AUTH_SECRET is required with APP_ENV=production/);
  });

  it("without ENCRYPTION_KEYS says so in one line, never the auth secret, and stops (stored secrets need keys of their own)", async () => {
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const lines: Record<string, unknown>[] = [];
    const env = { APP_ENV: "production", AUTH_SECRET: secret, ENCRYPTION_KEYS: undefined, LOG_LEVEL: "info" };
    await expect(startUpLog(env, lines)).rejects.toThrow("exit 1");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error" });
    expect(lines[0].message).toMatch(/ENCRYPTION_KEYS is required with APP_ENV=production/);
    expect(JSON.stringify(lines)).not.toContain(secret);
  });

  it("without SMTP_URL says in one line that mail is not configured", async () => {
    const lines = await startUpLog({
      APP_ENV: "production",
      AUTH_SECRET: secret,
      ENCRYPTION_KEYS: encryptionKeys,
      SMTP_URL: undefined,
      LOG_LEVEL: "info",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn" });
    expect(lines[0].message).toMatch(/mail is not configured: set SMTP_URL/);
  });

  it("with SMTP_URL says nothing about mail", async () => {
    const lines = await startUpLog({
      APP_ENV: "production",
      AUTH_SECRET: secret,
      ENCRYPTION_KEYS: encryptionKeys,
      SMTP_URL: "smtp://mail.example.test:587",
      LOG_LEVEL: "info",
    });
    expect(lines.filter((line) => String(line.message).includes("mail"))).toEqual([]);
  });
});
