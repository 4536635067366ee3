import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { grantUpload, signUpload, uploadUrlValidityMs, verifyUpload, type UploadTerms } from "@/lib/domain/media/upload-signature";
import { fuzzParameters } from "@/tests/fuzz/support";
import { restoreEnv, setEnv } from "../../support/env";

const now = Date.UTC(2026, 10, 25, 16, 0, 0);
const terms: UploadTerms = {
  key: "uploads/acct_1/01JZ.jpg",
  contentLength: 2_345_678,
  contentType: "image/jpeg",
  expires: now / 1000 + 900,
};

afterEach(() => {
  restoreEnv();
});

describe("upload URL signatures", () => {
  it("grant terms for 15 minutes, accepted until the expiry second and refused after it", () => {
    const { terms: granted, token } = grantUpload({
      key: terms.key,
      contentLength: terms.contentLength,
      contentType: "image/jpeg",
      nowMs: now,
    });
    expect(uploadUrlValidityMs).toBe(900_000);
    expect(granted).toEqual(terms);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]{43}$/);
    expect(verifyUpload(granted, token, now)).toEqual({ ok: true });
    expect(verifyUpload(granted, token, now + 900_000)).toEqual({ ok: true });
    expect(verifyUpload(granted, token, now + 900_001)).toEqual({ ok: false, reason: "expired" });
  });

  it("round the expiry up to the whole second", () => {
    expect(grantUpload({ key: "k", contentLength: 1, contentType: "image/png", nowMs: now + 1 }).terms.expires).toBe(now / 1000 + 901);
  });

  it("refuse a token whose key, length, type or expiry differ from what was signed", () => {
    const token = signUpload(terms);
    expect(verifyUpload({ ...terms, key: "uploads/acct_2/01JZ.jpg" }, token, now)).toEqual({ ok: false, reason: "invalid_signature" });
    expect(verifyUpload({ ...terms, contentLength: terms.contentLength + 1 }, token, now)).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
    expect(verifyUpload({ ...terms, contentType: "image/png" }, token, now)).toEqual({ ok: false, reason: "invalid_signature" });
    // A later expiry written into the URL by hand is a forgery, not a longer validity.
    expect(verifyUpload({ ...terms, expires: terms.expires + 3600 }, token, now + 1_800_000)).toEqual({
      ok: false,
      reason: "invalid_signature",
    });
  });

  it("refuse forged and malformed tokens without throwing", () => {
    const token = signUpload(terms);
    const forged = `v1.${Buffer.alloc(32, 1).toString("base64url")}`;
    expect(verifyUpload(terms, forged, now)).toEqual({ ok: false, reason: "invalid_signature" });
    for (const bad of [
      "",
      "v1.",
      "v2." + token.slice(3),
      token + "A",
      token.slice(0, -1),
      `${token}.x`,
      token.replace("v1.", "v1.."),
      "v1." + "+".repeat(43),
    ]) {
      expect(verifyUpload(terms, bad, now), bad).toEqual({ ok: false, reason: "malformed" });
    }
    expect(verifyUpload(terms, 42 as unknown as string, now)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyUpload({ ...terms, contentLength: 1.5 }, token, now)).toEqual({ ok: false, reason: "malformed" });
    expect(verifyUpload({ ...terms, expires: Number.NaN }, token, now)).toEqual({ ok: false, reason: "malformed" });
  });

  it("are made with AUTH_SECRET: another secret refuses the token", () => {
    const token = signUpload(terms);
    setEnv({ AUTH_SECRET: "another-test-only-secret-of-32-characters-or-more" });
    expect(verifyUpload(terms, token, now)).toEqual({ ok: false, reason: "invalid_signature" });
    expect(verifyUpload(terms, signUpload(terms), now)).toEqual({ ok: true });
  });

  it("use a key derived from AUTH_SECRET (HKDF), not AUTH_SECRET itself", async () => {
    const { createHmac } = await import("node:crypto");
    const message = JSON.stringify(["v1", terms.key, terms.contentLength, terms.contentType, terms.expires]);
    const plain = `v1.${createHmac("sha256", process.env.AUTH_SECRET!).update(message).digest("base64url")}`;
    expect(verifyUpload(terms, plain, now)).toEqual({ ok: false, reason: "invalid_signature" });
  });

  it("refuse to sign terms without a key, a type, a whole length or a whole expiry", () => {
    expect(() => signUpload({ ...terms, key: "" })).toThrow();
    expect(() => signUpload({ ...terms, contentType: "" })).toThrow();
    expect(() => signUpload({ ...terms, contentLength: -1 })).toThrow();
    expect(() => signUpload({ ...terms, contentLength: 0.5 })).toThrow();
    expect(() => signUpload({ ...terms, expires: 1.5 })).toThrow();
  });
});

describe("upload URL signatures (properties)", () => {
  const termsArbitrary = fc.record({
    key: fc.string({ minLength: 1, maxLength: 200 }),
    contentLength: fc.integer({ min: 1, max: 20 * 1024 * 1024 }),
    contentType: fc.oneof(fc.constantFrom("image/jpeg", "image/png", "image/webp"), fc.string({ minLength: 1, maxLength: 60 })),
    nowMs: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2100, 0, 1) }),
  });

  it("a granted token is accepted at any moment of its 15 minutes and refused as expired after", () => {
    fc.assert(
      fc.property(
        termsArbitrary,
        fc.integer({ min: 0, max: uploadUrlValidityMs }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        (input, within, after) => {
          const { terms: granted, token } = grantUpload(input);
          expect(verifyUpload(granted, token, input.nowMs + within)).toEqual({ ok: true });
          expect(verifyUpload(granted, token, granted.expires * 1000 + after)).toEqual({ ok: false, reason: "expired" });
        },
      ),
      fuzzParameters(300),
    );
  });

  it("any other terms are refused with the token of the first", () => {
    fc.assert(
      fc.property(termsArbitrary, termsArbitrary, (first, second) => {
        const a = grantUpload(first);
        const b = grantUpload(second).terms;
        fc.pre(JSON.stringify(a.terms) !== JSON.stringify(b));
        expect(verifyUpload(b, a.token, Math.min(first.nowMs, second.nowMs)).ok).toBe(false);
      }),
      fuzzParameters(300),
    );
  });

  it("changing any one of the four signed values is refused", () => {
    fc.assert(
      fc.property(
        termsArbitrary,
        fc.constantFrom("key", "contentLength", "contentType", "expires"),
        fc.integer({ min: 1, max: 10_000 }),
        (input, field, delta) => {
          const { terms: granted, token } = grantUpload(input);
          const changed: UploadTerms =
            field === "key" || field === "contentType"
              ? { ...granted, [field]: granted[field] + String.fromCharCode(32 + (delta % 90)) }
              : { ...granted, [field]: granted[field] + delta };
          expect(verifyUpload(changed, token, input.nowMs)).toEqual({ ok: false, reason: "invalid_signature" });
        },
      ),
      fuzzParameters(300),
    );
  });

  it("any change to a token's characters is refused, and no string makes verify throw", () => {
    fc.assert(
      fc.property(
        termsArbitrary,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.string({ maxLength: 80 }),
        (input, at, replacement, random) => {
          const { terms: granted, token } = grantUpload(input);
          const index = at % token.length;
          const mutated = token.slice(0, index) + replacement + token.slice(index + 1);
          if (mutated !== token) expect(verifyUpload(granted, mutated, input.nowMs).ok).toBe(false);
          expect(verifyUpload(granted, random, input.nowMs).ok).toBe(false);
        },
      ),
      fuzzParameters(300),
    );
  });
});
