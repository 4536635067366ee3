/**
 * Who did something in an account's activity log, as a page shows it to the viewing account. The log
 * stores `actorLabel` (lib/base/context.ts): `account:<id>`, `api:<keyId>`, `moderator:<id>`,
 * `operator`, `system`, and `public` for a link used without signing in (confirmation, password reset).
 */
export type ActivityActor =
  | { kind: "you" }
  | { kind: "key"; keyId: string }
  | { kind: "operator" }
  | { kind: "system" }
  | { kind: "moderator" }
  | { kind: "link" }
  | { kind: "other_account"; accountId: string }
  | { kind: "unknown" };

export function activityActor(stored: string, viewerAccountId: string): ActivityActor {
  if (stored === "operator" || stored === "system") return { kind: stored };
  if (stored === "public") return { kind: "link" };
  const colon = stored.indexOf(":");
  const kind = stored.slice(0, colon);
  const id = stored.slice(colon + 1);
  if (colon < 0 || !id) return { kind: "unknown" };
  if (kind === "api") return { kind: "key", keyId: id };
  if (kind === "moderator") return { kind: "moderator" };
  if (kind === "account") return id === viewerAccountId ? { kind: "you" } : { kind: "other_account", accountId: id };
  return { kind: "unknown" };
}
