import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { database } from "@/db";
import { sessionAccount, type SessionAccount } from "@/lib/domain/accounts/session-account";
import {
  accountContext,
  moderatorContext,
  publicContext,
  type AccountActor,
  type ModeratorActor,
  type PublicActor,
  type ServiceContext,
} from "@/lib/base/context";
import { auth } from "./auth";
import { pagePathHeader } from "./page-path";
import { safeReturnPath } from "./return-path";

/** The account signed in to this request, or null; read once per request. */
export const signedInAccount = cache(async (): Promise<SessionAccount | null> => {
  const session = await auth();
  if (!session?.accountId || typeof session.sessionGeneration !== "number") return null;
  return sessionAccount({
    ctx: publicContext(await database()),
    input: { accountId: session.accountId, sessionGeneration: session.sessionGeneration },
  });
});

export interface PortalSession {
  account: SessionAccount;
  ctx: ServiceContext<Extract<AccountActor, { kind: "account" }>>;
}

/**
 * For signed-in pages and their server actions: the account and its service context, or a redirect
 * to sign-in that comes back to this page afterwards.
 */
export async function requireAccount(): Promise<PortalSession> {
  const account = await signedInAccount();
  if (!account) redirect(`/login?next=${encodeURIComponent(await currentPath())}`);
  return { account, ctx: await sessionContext(account) };
}

/**
 * For the moderation desk's pages and actions: a signed-in moderator and their moderator context.
 * Anyone else signed in gets the site's not-found page, as if the desk did not exist.
 */
export async function requireModerator(): Promise<{ account: SessionAccount; ctx: ServiceContext<ModeratorActor> }> {
  const { account } = await requireAccount();
  if (!account.isModerator) notFound();
  return { account, ctx: moderatorContext(await database(), { accountId: account.id }, { locale: account.language }) };
}

export interface VisitorSession {
  /** Whoever is signed in, if anyone: the language switch remembers the choice on the account too. */
  account: SessionAccount | null;
  ctx: ServiceContext<PublicActor>;
}

/** For the forms anyone may send (sign-up, sign-in, a report): the public context. */
export async function visitorSession(): Promise<VisitorSession> {
  return { account: await signedInAccount(), ctx: publicContext(await database()) };
}

/**
 * For the public catalog's pages: the public context, whose catalog reads go to a replica (they may
 * lag) for a visitor signed out; a signed-in visitor may be looking for what they have just published
 * or posted, so theirs read the primary.
 */
export async function catalogContext(): Promise<ServiceContext<PublicActor>> {
  return publicContext(await database(), { reads: (await signedInAccount()) ? "primary" : "replicas" });
}

/** The service context of a signed-in account, for code that reads the session itself (`signedInAccount`). */
export async function sessionContext(account: SessionAccount): Promise<PortalSession["ctx"]> {
  const agency = account.agency ? { id: account.agency.id, role: account.agency.role } : null;
  return accountContext(await database(), { accountId: account.id, agency }, { locale: account.language });
}

async function currentPath(): Promise<string> {
  return safeReturnPath((await headers()).get(pagePathHeader));
}
