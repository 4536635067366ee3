import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook } from "@/lib/domain/webhooks/signature";
import { verifyWebhook, WebhookVerificationError } from "@/sdk/src/index";

const event = {
  id: "evt_00000000a3",
  type: "listing.published",
  created_at: "2026-11-26T10:00:00.000Z",
  data: { code: "K7M2XQ4P", external_ref: "crm-10442", status: "active", url: "https://listings.example.com/listings/K7M2XQ4P" },
};

/** A delivery signed by the product's own signer, as the sender sends it. */
function delivery(secret: string, options: { body?: string; timestamp?: number } = {}) {
  const body = options.body ?? JSON.stringify(event);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = signWebhook({ secret, id: event.id, timestamp, body });
  return { body, headers: { "webhook-id": event.id, "webhook-timestamp": String(timestamp), "webhook-signature": signature } };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("verified");
};

describe("verifyWebhook", () => {
  it("accepts a delivery the product signed, from a string or bytes, with Headers or a Node headers object", () => {
    const secret = newWebhookSecret();
    const { body, headers } = delivery(secret);
    expect(verifyWebhook({ payload: body, headers, secret })).toEqual(event);
    expect(verifyWebhook({ payload: new TextEncoder().encode(body), headers: new Headers(headers), secret })).toEqual(event);
    const upperCase = {
      "Webhook-Id": headers["webhook-id"],
      "Webhook-Timestamp": [headers["webhook-timestamp"]],
      "Webhook-Signature": headers["webhook-signature"],
    };
    expect(verifyWebhook({ payload: body, headers: upperCase, secret })).toEqual(event);
  });

  it("accepts any of several v1 entries", () => {
    const secret = newWebhookSecret();
    const { body, headers } = delivery(secret);
    const other = delivery(newWebhookSecret()).headers["webhook-signature"];
    expect(
      verifyWebhook({ payload: body, headers: { ...headers, "webhook-signature": `${other} ${headers["webhook-signature"]}` }, secret }),
    ).toEqual(event);
  });

  it("refuses a tampered body, a wrong secret, an old or future timestamp, and missing headers", () => {
    const secret = newWebhookSecret();
    const { body, headers } = delivery(secret);
    const cases = [
      () => verifyWebhook({ payload: body.replace("K7M2XQ4P", "K7M2XQ4Q"), headers, secret }),
      () => verifyWebhook({ payload: body, headers, secret: newWebhookSecret() }),
      () => {
        const old = delivery(secret, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
        verifyWebhook({ payload: old.body, headers: old.headers, secret });
      },
      () => {
        const future = delivery(secret, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 });
        verifyWebhook({ payload: future.body, headers: future.headers, secret });
      },
      () => verifyWebhook({ payload: body, headers: { ...headers, "webhook-signature": undefined }, secret }),
    ];
    for (const run of cases) expect(refusal(run)).toBeInstanceOf(WebhookVerificationError);
  });

  it("accepts a timestamp within the 5 minutes' tolerance", () => {
    const secret = newWebhookSecret();
    const recent = delivery(secret, { timestamp: Math.floor(Date.now() / 1000) - 4 * 60 });
    expect(verifyWebhook({ payload: recent.body, headers: recent.headers, secret })).toEqual(event);
  });

  it("verifies the exact bytes: a byte order mark or a re-encoding the sender did not sign fails, one it signed passes", () => {
    const secret = newWebhookSecret();
    const { body, headers } = delivery(secret);
    const encoded = new TextEncoder().encode(body);
    const withMark = new Uint8Array([0xef, 0xbb, 0xbf, ...encoded]);
    expect(refusal(() => verifyWebhook({ payload: withMark, headers, secret }))).toBeInstanceOf(WebhookVerificationError);
    expect(refusal(() => verifyWebhook({ payload: `\uFEFF${body}`, headers, secret }))).toBeInstanceOf(WebhookVerificationError);
    // Signed with U+FFFD (EF BF BD), received with a lone 0xFF there: a lenient decoder reads the same text.
    const replaced = delivery(secret, { body: JSON.stringify({ ...event, data: { ...event.data, external_ref: "crm-\uFFFD" } }) });
    const [before, after] = replaced.body.split("\uFFFD").map((part) => new TextEncoder().encode(part));
    const otherBytes = new Uint8Array([...before, 0xff, ...after]);
    expect(refusal(() => verifyWebhook({ payload: otherBytes, headers: replaced.headers, secret }))).toBeInstanceOf(
      WebhookVerificationError,
    );

    const signedWithMark = delivery(secret, { body: `\uFEFF${body}` });
    expect(verifyWebhook({ payload: withMark, headers: signedWithMark.headers, secret })).toEqual(event);
    expect(verifyWebhook({ payload: signedWithMark.body, headers: signedWithMark.headers, secret })).toEqual(event);
    expect(refusal(() => verifyWebhook({ payload: encoded, headers: signedWithMark.headers, secret }))).toBeInstanceOf(
      WebhookVerificationError,
    );
  });
});
