import { describe, expect, it } from "vitest";
import { createDocsKey, docsKeyName } from "@/lib/domain/keys/create-docs-key";
import { listOwnKeys } from "@/lib/domain/keys/list-keys";
import { createdKeys } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { appErrorCode, freshAccount, signedIn } from "./support";
import { restoreEnv, setEnv } from "../support/env";

const ping = async (key: string) =>
  (await inProcessFetch(new Request("http://localhost:3000/api/v1/ping", { headers: { authorization: `Bearer ${key}` } }))).status;

describe("createDocsKey (the guides' key for their samples)", () => {
  it("makes a sandbox key with the samples' permissions, one at a time: a new one revokes the one before", async () => {
    const account = await freshAccount();
    const ctx = await signedIn(account);
    const first = await createDocsKey({ ctx });
    createdKeys.push(first.key);
    expect(first).toMatchObject({
      name: docsKeyName,
      environment: "sandbox",
      permissions: ["listings:read", "listings:write", "media:write"],
    });
    expect(first.key).toMatch(/^key_.+\|svc_test_/);
    expect(await ping(first.key)).toBe(200);

    const second = await createDocsKey({ ctx });
    createdKeys.push(second.key);
    expect(await ping(first.key)).toBe(401);
    expect(await ping(second.key)).toBe(200);
    const { keys } = await listOwnKeys({ ctx });
    expect(keys.filter((key) => key.name === docsKeyName && key.status === "active").map((key) => key.id)).toEqual([second.id]);
  });

  it("is refused in production, where it would be a live key", async () => {
    setEnv({ APP_ENV: "production" });
    try {
      expect(await appErrorCode(createDocsKey({ ctx: await signedIn(await freshAccount()) }))).toBe("forbidden");
    } finally {
      restoreEnv();
    }
  });
});
