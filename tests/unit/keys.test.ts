import { describe, expect, it } from "vitest";
import { generateKey, parseKey } from "@/lib/domain/keys/format";
import { hashSecret, secretMatches } from "@/lib/base/secret-hash";

describe("API key format", () => {
  it("generates <id>|<prefix><secret> with the environment's prefix", () => {
    const sandbox = generateKey("sandbox");
    expect(sandbox.key).toMatch(/^key_[0-9a-z]{16}\|svc_test_[A-Za-z0-9]{40}$/);
    expect(generateKey("production").key).toMatch(/\|svc_live_/);
    expect(parseKey(sandbox.key)).toEqual({ id: sandbox.id, environment: "sandbox", secret: sandbox.secret });
  });

  it.each([
    "",
    "svc_test_abc",
    "key_0123456789abcdef",
    "key_0123456789abcdef|",
    "key_0123456789abcdef|svc_prod_" + "a".repeat(40),
    "key_0123456789abcdef|svc_test_" + "a".repeat(39),
    "key_0123456789abcdef|svc_test_" + "a".repeat(41),
    "key_0123456789ABCDEF|svc_test_" + "a".repeat(40),
    "acct_0123456789abcdef|svc_test_" + "a".repeat(40),
    "key_0123456789abcdef|svc_test_" + "a".repeat(39) + "!",
  ])("refuses the malformed key %j before any lookup", (value) => {
    expect(parseKey(value)).toBeUndefined();
  });

  it("stores only a hash and compares it exactly", () => {
    const { secret } = generateKey("sandbox");
    const stored = hashSecret(secret);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(generateKey("sandbox").secret, stored)).toBe(false);
  });
});
