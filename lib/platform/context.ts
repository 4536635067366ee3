import type { Database } from "@/db";
import type { Locale } from "@/lib/platform/i18n";

/** What every service receives: the database and who acts. */
export interface ServiceContext {
  database: Database;
  actor: Actor;
  now: Date;
  locale?: Locale;
}

export type Actor =
  | { kind: "api"; accountId: string; keyId: string }
  | { kind: "account"; accountId: string }
  | { kind: "moderator"; accountId: string }
  | { kind: "operator" }
  | { kind: "system" };

export const actorLabel = (actor: Actor): string =>
  actor.kind === "api" ? `api:${actor.keyId}` : "accountId" in actor ? `${actor.kind}:${actor.accountId}` : actor.kind;
