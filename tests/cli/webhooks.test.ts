import { describe, expect, it } from "vitest";
import { signingSecretOf } from "@/lib/domain/webhooks/webhook-signing-secret";
import { newId } from "@/lib/base/ids";
import { redirectUri } from "../oauth/support";
import { receiver, webhookRow } from "../webhooks/support";
import { cli, text } from "./support";

async function accountByCli() {
  const email = `${newId("account")}@example.test`;
  expect((await cli("account:create", "--email", email, "--password", "correct horse battery")).exitCode).toBe(0);
  return email;
}

describe("webhook:create", () => {
  it("creates a webhook of the account with that e-mail and prints its id and secret", async () => {
    const email = await accountByCli();
    const run = await cli("webhook:create", "--email", email, "--url", receiver, "--events", "listing.published, listing.sold");
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({ id: expect.stringMatching(/^wh_/), secret: expect.stringMatching(/^whsec_/) });
    expect(signingSecretOf(await webhookRow(text(run.result, "id")))).toBe(run.result?.secret);
  });

  it("refuses an unknown e-mail, an address that is not public https and an unknown event type, naming the flag", async () => {
    const unknown = await cli("webhook:create", "--email", "nobody@example.test", "--url", receiver, "--events", "listing.sold");
    expect(unknown.exitCode).toBe(2);
    expect(unknown.error?.errors).toEqual([expect.objectContaining({ pointer: "/email", reason: "unknown_account_email" })]);
    const email = await accountByCli();
    const local = await cli("webhook:create", "--email", email, "--url", "https://127.0.0.1/hook", "--events", "listing.sold");
    expect(local.exitCode).toBe(2);
    expect(local.error?.errors).toEqual([
      { pointer: "/url", code: "invalid_value", reason: "url_not_public", detail: expect.stringContaining("public") },
    ]);
    const test = await cli("webhook:create", "--email", email, "--url", receiver, "--events", "webhook.test");
    expect(test.exitCode).toBe(2);
    expect(test.error?.errors).toEqual([expect.objectContaining({ pointer: "/events/0", code: "in" })]);
  });

  it("answers limit_reached for the sixth webhook of an account", async () => {
    const email = await accountByCli();
    for (let i = 0; i < 5; i++) {
      expect((await cli("webhook:create", "--email", email, "--url", `${receiver}/${i}`, "--events", "listing.sold")).exitCode).toBe(0);
    }
    const sixth = await cli("webhook:create", "--email", email, "--url", receiver, "--events", "listing.sold");
    expect(sixth.exitCode).toBe(2);
    expect(sixth.error).toMatchObject({ code: "limit_reached", detail: expect.stringContaining("at most 5 webhooks") });
  });
});

describe("client:create with a webhook", () => {
  it("prints webhook_id and webhook_secret beside the app's credentials", async () => {
    const email = await accountByCli();
    const run = await cli(
      "client:create",
      "--email",
      email,
      "--name",
      "CRM",
      "--redirect-uri",
      redirectUri,
      "--webhook-url",
      receiver,
      "--events",
      "listing.published,listing.withdrawn",
    );
    expect(run).toMatchObject({ exitCode: 0, stderr: "" });
    expect(run.result).toEqual({
      client_id: expect.stringMatching(/^svcc_/),
      client_secret: expect.stringMatching(/^svcs_/),
      name: "CRM",
      redirect_uris: [redirectUri],
      webhook_id: expect.stringMatching(/^wh_/),
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
  });

  it("needs both webhook flags, and registers no app when the webhook is refused", async () => {
    const email = await accountByCli();
    const half = await cli("client:create", "--email", email, "--name", "CRM", "--redirect-uri", redirectUri, "--webhook-url", receiver);
    expect(half.exitCode).toBe(2);
    expect(half.error?.errors).toEqual([expect.objectContaining({ pointer: "/events", code: "required_with" })]);
    const refused = await cli(
      "client:create",
      "--email",
      email,
      "--name",
      "CRM",
      "--redirect-uri",
      redirectUri,
      "--webhook-url",
      "http://93.184.215.14/hook",
      "--events",
      "listing.sold",
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.error?.errors).toEqual([expect.objectContaining({ pointer: "/webhook-url", code: "url" })]);
    for (let i = 0; i < 5; i++) await cli("webhook:create", "--email", email, "--url", `${receiver}/${i}`, "--events", "listing.sold");
    const overLimit = await cli(
      "client:create",
      "--email",
      email,
      "--name",
      "CRM",
      "--redirect-uri",
      redirectUri,
      "--webhook-url",
      receiver,
      "--events",
      "listing.sold",
    );
    expect(overLimit.error).toMatchObject({ code: "limit_reached", detail: expect.stringContaining("at most 5 webhooks") });
    const { rows } = await import("../oauth/rows");
    expect(await rows(`select c.id from oauth_clients c join accounts a on a.id = c.account_id where a.email = '${email}'`)).toBe("[]");
  });
});
