import { Auth } from "@auth/core";
import { encode } from "@auth/core/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { formToken, formTokenMatches, type FormTokenBinding } from "@/lib/adapters/portal/csrf";
import { authSecrets } from "@/lib/base/auth-secret";
import { grantUpload, verifyUpload } from "@/lib/domain/media/upload-signature";
import { restoreEnv, setEnv } from "../../support/env";

const oldSecret = "the-auth-secret-before-the-rotation-32-characters";
const newSecret = "the-auth-secret-after-the-rotation-of-32-characters";
// Sessions are not Secure over http:// (the tests' APP_URL): Auth.js's cookie name and the JWE salt.
const cookieName = "authjs.session-token";

afterEach(() => {
  restoreEnv();
});

/** A session cookie as the portal's sign-in makes it, sealed with `secret`. */
const sessionCookie = (secret: string) =>
  encode({ token: { accountId: "acc_rotation", sessionGeneration: 1, sub: "acc_rotation" }, secret, salt: cookieName, maxAge: 3600 });

/**
 * What Auth.js reads from the cookie through its own session endpoint, given the secrets as the
 * portal gives them (lib/adapters/portal/auth.ts: `secret: authSecrets()`, JWT sessions). The portal's
 * module itself loads Next.js's server runtime, which these tests do not run.
 */
async function sessionFrom(cookie: string): Promise<{ accountId?: string } | null> {
  const request = new Request("http://localhost:3000/api/auth/session", { headers: { cookie: `${cookieName}=${cookie}` } });
  const response = await Auth(request, {
    secret: authSecrets(),
    basePath: "/api/auth",
    trustHost: true,
    providers: [],
    session: { strategy: "jwt" },
    callbacks: { session: ({ session, token }) => ({ ...session, accountId: token.accountId as string | undefined }) },
  });
  return (await response.json()) as { accountId?: string } | null;
}

describe("AUTH_SECRET rotation with AUTH_SECRET_PREVIOUS", () => {
  it("a session sealed before the rotation still reads; one sealed with a secret no longer listed does not", async () => {
    const before = await sessionCookie(oldSecret);
    setEnv({ AUTH_SECRET: newSecret, AUTH_SECRET_PREVIOUS: oldSecret });
    expect(await sessionFrom(before)).toMatchObject({ accountId: "acc_rotation" });
    expect(await sessionFrom(await sessionCookie(newSecret))).toMatchObject({ accountId: "acc_rotation" });

    setEnv({ AUTH_SECRET_PREVIOUS: undefined });
    expect(await sessionFrom(before)).toBeNull();
    expect(await sessionFrom(await sessionCookie("a-stranger-secret-that-was-never-listed-here"))).toBeNull();
  });

  it("the current secret comes first (Auth.js seals new sessions with the first), then the previous ones in their order", () => {
    setEnv({ AUTH_SECRET: newSecret, AUTH_SECRET_PREVIOUS: ` ${oldSecret} , ${"x".repeat(32)}` });
    expect(authSecrets()).toEqual([newSecret, oldSecret, "x".repeat(32)]);
  });

  const consent: FormTokenBinding<string> = { purpose: "consent", subject: (client) => [client] };

  it("a form token and an upload URL made before the rotation are accepted under the previous secret only", () => {
    setEnv({ AUTH_SECRET: oldSecret });
    const account = { id: "acc_rotation" };
    const token = formToken(account, consent, "client_1");
    const upload = grantUpload({ key: "uploads/x.jpg", contentLength: 10, contentType: "image/jpeg", nowMs: Date.now() });

    setEnv({ AUTH_SECRET: newSecret, AUTH_SECRET_PREVIOUS: oldSecret });
    expect(formTokenMatches(token, account, consent, "client_1")).toBe(true);
    expect(formTokenMatches(token, account, consent, "client_2")).toBe(false);
    expect(formToken(account, consent, "client_1")).not.toBe(token);
    expect(verifyUpload(upload.terms, upload.token, Date.now())).toEqual({ ok: true });

    setEnv({ AUTH_SECRET_PREVIOUS: undefined });
    expect(formTokenMatches(token, account, consent, "client_1")).toBe(false);
    expect(verifyUpload(upload.terms, upload.token, Date.now())).toEqual({ ok: false, reason: "invalid_signature" });
  });
});
