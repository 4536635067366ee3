import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, verifyWebhook } from "@/lib/domain/webhooks/signature";

describe("webhook signatures", () => {
  it("match the Standard Webhooks test vector", () => {
    const signature = signWebhook({
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("are verified by the standardwebhooks library with a new secret, and refused once the body changes", () => {
    const secret = newWebhookSecret();
    const id = "evt_01JXYZ";
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ id, type: "listing.published", data: { code: "AB12CD", title: "Garsonieră în Cluj" } });
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook({ secret, id, timestamp, body }),
    };

    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("AB12CD", "AB12CE"), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("new secrets are whsec_ and the base64 of 32 random bytes, each different", () => {
    const secrets = new Set(Array.from({ length: 20 }, newWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    }
  });

  it("refuse a secret without the whsec_ prefix and a timestamp that is not whole seconds", () => {
    expect(() => signWebhook({ secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id: "msg_1", timestamp: 1614265330, body: "{}" })).toThrow(
      /whsec_/,
    );
    expect(() =>
      signWebhook({ secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id: "msg_1", timestamp: 1614265330.5, body: "{}" }),
    ).toThrow();
  });
});

describe("verifyWebhook (the sandbox receiver's check)", () => {
  const secret = newWebhookSecret();
  const id = "evt_42";
  // The real time: the standardwebhooks library checks the timestamp against its own clock.
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id, type: "listing.published", data: { code: "AB12CD34" } });
  const signed = (at = now, key = secret, content = body) => ({
    id,
    timestamp: String(at),
    signature: signWebhook({ secret: key, id, timestamp: at, body: content }),
  });

  it("accepts what the platform signs, as the standardwebhooks library does, and names the secret that verified", () => {
    const headers = signed();
    expect(verifyWebhook({ secrets: [newWebhookSecret(), secret], headers, body, nowSeconds: now })).toEqual({ ok: true, secret });
    expect(
      new Webhook(secret).verify(body, {
        "webhook-id": headers.id,
        "webhook-timestamp": headers.timestamp,
        "webhook-signature": headers.signature,
      }),
    ).toEqual(JSON.parse(body));
    // Several signatures in one header (a rotation in progress): any one verifies.
    const both = { ...headers, signature: `${signed(now, newWebhookSecret()).signature} ${headers.signature}` };
    expect(verifyWebhook({ secrets: [secret], headers: both, body, nowSeconds: now })).toMatchObject({ ok: true });
  });

  it("refuses a changed body, another secret, a missing header and a timestamp over 5 minutes away, each with its reason", () => {
    const headers = signed();
    expect(verifyWebhook({ secrets: [secret], headers, body: body.replace("AB12CD34", "AB12CD35"), nowSeconds: now })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    expect(verifyWebhook({ secrets: [newWebhookSecret()], headers, body, nowSeconds: now })).toMatchObject({
      reason: "signature_mismatch",
    });
    expect(verifyWebhook({ secrets: [], headers, body, nowSeconds: now })).toMatchObject({ reason: "signature_mismatch" });
    expect(verifyWebhook({ secrets: [secret], headers: { ...headers, signature: null }, body, nowSeconds: now })).toMatchObject({
      reason: "missing_headers",
    });
    expect(verifyWebhook({ secrets: [secret], headers: signed(now - 301), body, nowSeconds: now })).toMatchObject({
      reason: "timestamp_out_of_range",
    });
    expect(verifyWebhook({ secrets: [secret], headers: signed(now + 301), body, nowSeconds: now })).toMatchObject({
      reason: "timestamp_out_of_range",
    });
    expect(verifyWebhook({ secrets: [secret], headers: signed(now - 300), body, nowSeconds: now })).toMatchObject({ ok: true });
    expect(verifyWebhook({ secrets: [secret], headers: { ...headers, timestamp: "1e9" }, body, nowSeconds: now })).toMatchObject({
      reason: "timestamp_out_of_range",
    });
  });
});
