import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { database } from "@/db";
import { verifyCredentials, type SignInRefusal } from "@/lib/domain/accounts/verify-credentials";
import { config } from "@/lib/base/config";
import { publicContext } from "@/lib/base/context";
import { clientIp } from "@/lib/base/client-ip";
import { logger } from "@/lib/base/logger";
import { authSecrets } from "@/lib/base/auth-secret";

/** A refused sign-in, carrying the service's reason to the sign-in form (never shown for an unknown address). */
export class SignInRefused extends CredentialsSignin {
  constructor(readonly refusal: SignInRefusal) {
    super();
    this.code = refusal.reason;
  }
}

declare module "next-auth" {
  interface Session {
    accountId?: string;
    sessionGeneration?: number;
  }
  interface User {
    sessionGeneration: number;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    accountId?: string;
    sessionGeneration?: number;
  }
}

const sessionDays = 30;

/**
 * Portal sessions (Auth.js v5). The credentials provider checks the password with
 * `verifyCredentials` (limits per account and per address included). Sessions are sealed cookies
 * (JWT: Auth.js keeps credentials sessions there) holding only the account id and its session
 * generation; every request re-reads the account (`signedInAccount` in session.ts), so a deactivated
 * account or a password change ends the session at the next request. Auth.js's own route handler is
 * not mounted: pages sign in and out through server actions only. Cookies are HttpOnly and SameSite=Lax, and
 * Secure when the portal is served over https (always in production).
 */
function authConfig(): NextAuthConfig {
  const c = config();
  const secure = c.APP_ENV === "production" || c.APP_URL.startsWith("https:");
  return {
    // The first seals new sessions; sessions sealed with a previous secret still open until they expire.
    secret: authSecrets(),
    // The address comes from the proxy trust model (docs/api.md, "Client address"), not from Auth.js's host check.
    trustHost: true,
    useSecureCookies: secure,
    session: { strategy: "jwt", maxAge: sessionDays * 86_400, updateAge: 86_400 },
    pages: { signIn: "/login", error: "/login" },
    logger: {
      // A refused password is an answer, not a fault: the service already counted it.
      error: (error) => (error instanceof CredentialsSignin ? undefined : logger.error("auth", { error: String(error) })),
      warn: (code) => logger.warn("auth", { code }),
      debug: () => undefined,
    },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async (credentials, request) => {
          const result = await verifyCredentials({
            ctx: publicContext(await database()),
            input: {
              email: String(credentials.email ?? ""),
              password: String(credentials.password ?? ""),
              address: clientIp(request.headers.get("x-forwarded-for")),
            },
          });
          if (!result.ok) throw new SignInRefused(result);
          return {
            id: result.account.id,
            email: result.account.email,
            name: result.account.name,
            sessionGeneration: result.account.sessionGeneration,
          };
        },
      }),
    ],
    callbacks: {
      // The cookie holds the account id and session generation only; `signedInAccount` checks them on every request.
      jwt: async ({ token, user }) => (user?.id ? { accountId: user.id, sessionGeneration: user.sessionGeneration } : token),
      session: async ({ session, token }) => ({ ...session, accountId: token.accountId, sessionGeneration: token.sessionGeneration }),
    },
  };
}

export const { auth, signIn, signOut } = NextAuth(() => authConfig());
