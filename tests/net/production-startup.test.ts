import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { checkStartUp } from "@/lib/adapters/startup";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

const secret = "a-production-session-secret-of-32-characters-or-more";

describe("UNSAFE_ALLOW_LOCAL_URLS at start-up", () => {
  it("with APP_ENV=production: one line saying it is refused, then the server stops", async () => {
    const lines: Record<string, unknown>[] = [];
    for (const [name, value] of Object.entries({
      APP_ENV: "production",
      AUTH_SECRET: secret,
      UNSAFE_ALLOW_LOCAL_URLS: "1",
      LOG_LEVEL: "info",
    }))
      vi.stubEnv(name, value);
    resetConfig();
    vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });

    expect(() => checkStartUp()).toThrow("exit 1");

    vi.mocked(process.stderr.write).mockRestore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error" });
    expect(lines[0].message).toMatch(/UNSAFE_ALLOW_LOCAL_URLS=1 is for local testing only and refused with APP_ENV=production/);
  });
});
