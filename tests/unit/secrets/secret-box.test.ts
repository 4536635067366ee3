import { afterEach, describe, expect, it } from "vitest";
import { config } from "@/lib/base/config";
import { openSecret, openSecretWithAge, sealSecret, UnreadableSecretError } from "@/lib/base/secret-box";
import { restoreEnv, setEnv } from "../../support/env";

const keyA = Buffer.alloc(32, 0xa1).toString("base64");
const keyB = Buffer.alloc(32, 0xb2).toString("base64url");
const oldAuthSecret = "an-old-auth-secret-of-32-characters-or-more";
const newAuthSecret = "a-new-auth-secret-of-32-characters-or-more!";

afterEach(() => {
  restoreEnv();
});

/** What `fn` throws (it must throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("ENCRYPTION_KEYS: the newest key seals, every listed key opens", () => {
  it("seals under the first key, its id in the value; opens after a rotation that keeps the old key listed", () => {
    setEnv({ ENCRYPTION_KEYS: `a:${keyA}` });
    const sealed = sealSecret("wh_1", "whsec_plain");
    expect(sealed).toMatch(/^v2\.a\.[A-Za-z0-9_-]+$/);
    expect(openSecretWithAge("wh_1", sealed)).toEqual({ plain: "whsec_plain", current: true });

    setEnv({ ENCRYPTION_KEYS: `b:${keyB}, a:${keyA}` });
    expect(openSecretWithAge("wh_1", sealed)).toEqual({ plain: "whsec_plain", current: false });
    expect(sealSecret("wh_1", "whsec_plain")).toMatch(/^v2\.b\./);
  });

  it("a value sealed under a key no longer listed fails naming that key id, never a key", () => {
    setEnv({ ENCRYPTION_KEYS: `a:${keyA}` });
    const sealed = sealSecret("wh_1", "whsec_plain");
    setEnv({ ENCRYPTION_KEYS: `b:${keyB}` });
    const error = thrown(() => openSecret("wh_1", sealed));
    expect(error).toBeInstanceOf(UnreadableSecretError);
    expect((error as UnreadableSecretError).keyId).toBe("a");
    expect(error.message).toBe('wh_1: sealed with encryption key "a", which ENCRYPTION_KEYS does not list');
    expect(error.message).not.toContain(keyA);
    expect(error.message).not.toContain(keyB);
  });

  it("the same id over another key, another row's value, or an altered value does not open", () => {
    setEnv({ ENCRYPTION_KEYS: `a:${keyA}` });
    const sealed = sealSecret("wh_1", "whsec_plain");
    expect(thrown(() => openSecret("wh_2", sealed))).toBeInstanceOf(UnreadableSecretError);
    const altered = sealed.slice(0, -2) + (sealed.endsWith("AA") ? "BB" : "AA");
    expect(thrown(() => openSecret("wh_1", altered)).message).toMatch(/does not open with encryption key "a"/);
    setEnv({ ENCRYPTION_KEYS: `a:${keyB}` });
    expect(thrown(() => openSecret("wh_1", sealed)).message).toMatch(/does not open with encryption key "a"/);
    expect(thrown(() => openSecret("wh_1", "v9.whatever")).message).toMatch(/unknown form/);
  });
});

describe("v1 values, sealed under the auth secret", () => {
  it("without ENCRYPTION_KEYS (the sandbox) are what sealSecret makes, and stay readable once keys are configured", () => {
    setEnv({ ENCRYPTION_KEYS: undefined });
    const sealed = sealSecret("wh_1", "whsec_plain");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(openSecretWithAge("wh_1", sealed)).toEqual({ plain: "whsec_plain", current: true });
    setEnv({ ENCRYPTION_KEYS: `a:${keyA}` });
    expect(openSecretWithAge("wh_1", sealed)).toEqual({ plain: "whsec_plain", current: false });
  });

  it("open under AUTH_SECRET_PREVIOUS after AUTH_SECRET changes, and fail as `v1` once it is gone", () => {
    setEnv({ ENCRYPTION_KEYS: undefined, AUTH_SECRET: oldAuthSecret });
    const sealed = sealSecret("wh_1", "whsec_plain");
    setEnv({ AUTH_SECRET: newAuthSecret, AUTH_SECRET_PREVIOUS: oldAuthSecret });
    expect(openSecretWithAge("wh_1", sealed)).toEqual({ plain: "whsec_plain", current: false });
    setEnv({ AUTH_SECRET_PREVIOUS: undefined });
    const error = thrown(() => openSecret("wh_1", sealed));
    expect(error).toMatchObject({ keyId: "v1" });
    expect(error.message).not.toContain(oldAuthSecret);
    expect(error.message).not.toContain(newAuthSecret);
  });

  it("production never seals without ENCRYPTION_KEYS", () => {
    setEnv({ APP_ENV: "production", ENCRYPTION_KEYS: undefined });
    expect(thrown(() => sealSecret("wh_1", "whsec_plain")).message).toBe("ENCRYPTION_KEYS is required with APP_ENV=production");
  });
});

describe("ENCRYPTION_KEYS refused at configuration time", () => {
  const refusal = (value: string): string => {
    setEnv({ ENCRYPTION_KEYS: value });
    const message = thrown(() => config()).message;
    expect(message).toMatch(/^Invalid environment variables: ENCRYPTION_KEYS \(/);
    return message;
  };

  it("a key that is not 32 bytes, or not base64, named by its id and never shown", () => {
    const short = Buffer.alloc(16, 1).toString("base64");
    expect(refusal(`a:${short}`)).toContain('key "a" is not 32 bytes in base64');
    expect(refusal(`a:${short}`)).not.toContain(short);
    const long = Buffer.alloc(48, 1).toString("base64");
    expect(refusal(`a:${keyA},b:${long}`)).toContain('key "b" is not 32 bytes in base64');
    const notBase64 = `${"!".repeat(43)}=`;
    expect(refusal(`a:${notBase64}`)).toContain('key "a" is not 32 bytes in base64');
    expect(refusal(`a:${notBase64}`)).not.toContain(notBase64);
  });

  it("a duplicate id, a missing or malformed id, or an empty list", () => {
    expect(refusal(`a:${keyA},a:${keyB}`)).toContain('key id "a" is listed twice');
    expect(refusal(keyA)).toContain("entry 1 needs an id");
    expect(refusal(`a.b:${keyA}`)).toContain("entry 1 needs an id");
    expect(refusal(`a:${keyA},:${keyB}`)).toContain("entry 2 needs an id");
    expect(refusal(" , ")).toContain("list at least one key");
  });

  it("accepts standard and URL-safe base64, spaces around entries, and keeps the order", () => {
    setEnv({ ENCRYPTION_KEYS: ` new:${keyB} ,old:${keyA} ` });
    expect(config().ENCRYPTION_KEYS?.map((key) => key.id)).toEqual(["new", "old"]);
    expect(config().ENCRYPTION_KEYS?.[0].key.equals(Buffer.alloc(32, 0xb2))).toBe(true);
  });

  it("AUTH_SECRET_PREVIOUS: each secret 32 characters or more", () => {
    setEnv({ AUTH_SECRET_PREVIOUS: `${oldAuthSecret},short` });
    expect(thrown(() => config()).message).toMatch(/AUTH_SECRET_PREVIOUS\.1 \(each previous secret has 32 characters or more\)/);
  });
});
