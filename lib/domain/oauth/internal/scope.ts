import { permissions, type Permission } from "@/lib/domain/keys/format";

export const scopesSupported = permissions;

const isPermission = (value: string): value is Permission => (permissions as readonly string[]).includes(value);

/**
 * A `scope` parameter (space-separated, RFC 6749 §3.3) as the permissions it names, in the
 * registry's order and each once; or the reason it is refused.
 */
export function parseScope(
  value: string | undefined,
): { ok: true; scope: Permission[] } | { ok: false; reason: "scope_missing" } | { ok: false; reason: "unknown_scope"; scope: string } {
  const words = (value ?? "").split(" ").filter(Boolean);
  if (!words.length) return { ok: false, reason: "scope_missing" };
  const unknown = words.find((word) => !isPermission(word));
  if (unknown !== undefined) return { ok: false, reason: "unknown_scope", scope: unknown };
  return { ok: true, scope: permissions.filter((permission) => words.includes(permission)) };
}

export const scopeText = (scope: readonly string[]): string => scope.join(" ");
