import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";
import { jobRegistry } from "@/lib/adapters/jobs/registry";
import { restoreEnv } from "../../support/env";

async function loadRoute(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
  // A fresh module graph per case: the Inngest client reads the environment when it is created.
  vi.resetModules();
  return import("@/app/api/inngest/route");
}

afterEach(() => {
  restoreEnv();
});

const request = (method: string) => new NextRequest("http://localhost:3000/api/inngest", { method });

describe("/api/inngest", () => {
  it("answers 503 problem+json when Inngest is not configured, whatever the method", async () => {
    const route = await loadRoute({ INNGEST_DEV: undefined, INNGEST_EVENT_KEY: undefined, INNGEST_SIGNING_KEY: undefined });
    for (const [method, handler] of [
      ["GET", route.GET],
      ["POST", route.POST],
      ["PUT", route.PUT],
    ] as const) {
      const response = await handler(request(method), {});
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 503, code: "inngest_not_configured" });
    }
  });

  it("serves one function per registered job, the dispatch sweep and the two webhook delivery functions when Inngest is configured", async () => {
    const route = await loadRoute({ INNGEST_DEV: "1" });
    const response = await route.GET(request("GET"), {});
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ function_count: jobRegistry.length + 3, mode: "dev" });
  });
});
