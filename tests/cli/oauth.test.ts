import { describe, expect, it } from "vitest";
import { newId } from "@/lib/base/ids";
import { challenge, postToken, redirectUri, tokenForm } from "../oauth/support";
import { createdKeys } from "../support/fixtures";
import { cli, text } from "./support";

async function accountByCli() {
  const email = `${newId("account")}@example.test`;
  expect((await cli("account:create", "--email", email, "--password", "correct horse battery")).exitCode).toBe(0);
  return email;
}

describe("client:create", () => {
  it("registers an app with several comma-separated redirect addresses and prints its id and secret once", async () => {
    const email = await accountByCli();
    const run = await cli(
      "client:create",
      "--email",
      email,
      "--name",
      "Agency CRM",
      "--redirect-uri",
      `${redirectUri}, http://localhost:8080/cb`,
    );
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({
      client_id: expect.stringMatching(/^svcc_/),
      client_secret: expect.stringMatching(/^svcs_[A-Za-z0-9]{40}$/),
      name: "Agency CRM",
      redirect_uris: [redirectUri, "http://localhost:8080/cb"],
    });
  });

  it("refuses an unknown e-mail and a redirect address that is not https or loopback", async () => {
    const unknown = await cli("client:create", "--email", "nobody@example.test", "--name", "CRM", "--redirect-uri", redirectUri);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.error?.errors).toEqual([
      { pointer: "/email", code: "invalid_value", reason: "unknown_account_email", detail: "No account has this e-mail address." },
    ]);
    const email = await accountByCli();
    const insecure = await cli("client:create", "--email", email, "--name", "CRM", "--redirect-uri", "http://crm.example.com/cb");
    expect(insecure.exitCode).toBe(2);
    expect(insecure.error?.errors).toEqual([
      { pointer: "/redirect-uri/0", code: "invalid_value", reason: "redirect_uri_scheme", detail: expect.stringContaining("https://") },
    ]);
  });
});

describe("oauth:consent", () => {
  async function app() {
    const email = await accountByCli();
    const created = await cli("client:create", "--email", email, "--name", "CRM", "--redirect-uri", redirectUri);
    return { client_id: text(created.result, "client_id"), client_secret: text(created.result, "client_secret") };
  }

  it("does what Allow does: a code the app exchanges at the token endpoint", async () => {
    const client = await app();
    const email = await accountByCli();
    const run = await cli(
      "oauth:consent",
      "--email",
      email,
      "--client-id",
      client.client_id,
      "--redirect-uri",
      redirectUri,
      "--scope",
      "listings:read listings:write",
      "--code-challenge",
      challenge,
      "--state",
      "abc",
    );
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    const code = text(run.result, "code");
    expect(new URL(text(run.result, "redirect_to")).searchParams.get("code")).toBe(code);
    expect(new URL(text(run.result, "redirect_to")).searchParams.get("state")).toBe("abc");
    const token = await postToken(tokenForm(client, code));
    expect(token.status, token.text).toBe(200);
    createdKeys.push(token.json!.access_token as string);
    expect(token.json?.scope).toBe("listings:read listings:write");
  });

  it("refuses an unknown app, an unregistered redirect address, an unknown permission and a malformed challenge", async () => {
    const client = await app();
    const email = await accountByCli();
    const consent = (overrides: Record<string, string>) => {
      const args = {
        email,
        "client-id": client.client_id,
        "redirect-uri": redirectUri,
        scope: "listings:read",
        "code-challenge": challenge,
        ...overrides,
      };
      return cli("oauth:consent", ...Object.entries(args).flatMap(([name, value]) => [`--${name}`, value]));
    };
    const cases: [Record<string, string>, string, string][] = [
      [{ "client-id": "svcc_0000000000000000" }, "/client-id", "invalid_value"],
      [{ "redirect-uri": "https://evil.example.com/cb" }, "/redirect-uri", "invalid_value"],
      [{ scope: "listings:read admin" }, "/scope/1", "in"],
      [{ "code-challenge": "plain-challenge" }, "/code-challenge", "regex"],
    ];
    for (const [overrides, pointer, code] of cases) {
      const run = await consent(overrides);
      expect(run.exitCode, JSON.stringify(overrides)).toBe(2);
      expect(run.error?.errors?.[0]).toMatchObject({ pointer, code });
    }
  });
});
