import { describe, expect, it } from "vitest";
import { GET as ping } from "@/app/api/v1/ping/route";
import { generateKey } from "@/lib/domain/keys/format";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { resetConfig } from "@/lib/base/config";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";

/**
 * A 401 says what the credential shows by itself (no key, not a key, a key of the other environment
 * by its prefix) and nothing that needs the database: an unknown id, a wrong secret and a revoked key
 * answer alike. Every 401 carries the RFC 6750 challenge, `invalid_token` once a token was sent.
 */

const send = (locale: "en" | "ro", authorization?: string) =>
  call(ping, { path: `/ping?locale=${locale}`, headers: authorization === undefined ? {} : { authorization } });

async function refusal(locale: "en" | "ro", authorization?: string) {
  const res = await send(locale, authorization);
  expect(res.status).toBe(401);
  expect(res.json).toMatchObject({ status: 401, code: "unauthenticated" });
  return {
    reason: res.json!.reason as string | undefined,
    detail: res.json!.detail as string,
    challenge: res.headers.get("www-authenticate"),
  };
}

describe("401 details, in English and Romanian", () => {
  it("no key: says how to send one; the challenge has no error", async () => {
    expect(await refusal("en")).toEqual({
      reason: "missing_key",
      detail: "No API key was sent: send the whole key in the Authorization header, as Bearer <key>.",
      challenge: "Bearer",
    });
    expect(await refusal("ro")).toEqual({
      reason: "missing_key",
      detail: "Nu a fost trimisă nicio cheie API: trimiteți cheia întreagă în antetul Authorization, ca Bearer <cheie>.",
      challenge: "Bearer",
    });
    // Another scheme is no Bearer key either.
    expect((await refusal("en", "Basic dXNlcjpwYXNz")).reason).toBe("missing_key");
  });

  it("not shaped like a key: names the form of a key", async () => {
    const { key } = await accountWithKey();
    for (const sent of ["not-a-key", key.split("|")[1], `${key}x`]) {
      const en = await refusal("en", `Bearer ${sent}`);
      expect(en).toMatchObject({ reason: "malformed_key", challenge: 'Bearer error="invalid_token"' });
      expect(en.detail).toContain("<id>|svc_live_<secret>");
      const ro = await refusal("ro", `Bearer ${sent}`);
      expect(ro).toMatchObject({ reason: "malformed_key", challenge: 'Bearer error="invalid_token"' });
      expect(ro.detail).toMatch(/^Aceasta nu este o cheie API/);
    }
  });

  it("a production key in the sandbox: says so, whether or not its id exists", async () => {
    const { key } = await accountWithKey();
    const known = key.replace("svc_test_", "svc_live_");
    const unknown = generateKey("production").key;
    for (const sent of [known, unknown]) {
      expect(await refusal("en", `Bearer ${sent}`)).toEqual({
        reason: "production_key",
        detail: "This is a production key (svc_live_); the sandbox accepts svc_test_ keys.",
        challenge: 'Bearer error="invalid_token"',
      });
      expect(await refusal("ro", `Bearer ${sent}`)).toEqual({
        reason: "production_key",
        detail: "Aceasta este o cheie de producție (svc_live_); sandboxul acceptă chei svc_test_.",
        challenge: 'Bearer error="invalid_token"',
      });
    }
  });

  it("a sandbox key in production: says so", async () => {
    const environment = process.env.APP_ENV;
    process.env.APP_ENV = "production";
    resetConfig();
    try {
      const sent = generateKey("sandbox").key;
      expect(await refusal("en", `Bearer ${sent}`)).toEqual({
        reason: "sandbox_key",
        detail: "This is a sandbox key (svc_test_); production accepts svc_live_ keys.",
        challenge: 'Bearer error="invalid_token"',
      });
      expect(await refusal("ro", `Bearer ${sent}`)).toMatchObject({
        reason: "sandbox_key",
        detail: "Aceasta este o cheie de sandbox (svc_test_); producția acceptă chei svc_live_.",
      });
    } finally {
      process.env.APP_ENV = environment;
      resetConfig();
    }
  });

  it("unknown id, wrong secret and revoked key: one answer, no reason, that does not tell whether the id exists", async () => {
    const { key, keyId } = await accountWithKey();
    const wrongSecret = `${keyId}|${generateKey("sandbox").secret}`;
    const unknownId = generateKey("sandbox").key;
    await revokeAnyKey({ ctx: await operatorCtx(), input: { id: keyId } });
    for (const locale of ["en", "ro"] as const) {
      const answers = [
        await refusal(locale, `Bearer ${unknownId}`),
        await refusal(locale, `Bearer ${wrongSecret}`),
        await refusal(locale, `Bearer ${key}`),
      ];
      expect(answers[0]).toEqual({
        reason: undefined,
        detail:
          locale === "en"
            ? "The API key is wrong, expired or revoked, or its account is no longer active."
            : "Cheia API este greșită, expirată sau revocată, ori contul ei nu mai este activ.",
        challenge: 'Bearer error="invalid_token"',
      });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
    }
  });
});
