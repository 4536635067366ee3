import { idPattern, newId, randomToken } from "@/lib/base/ids";

export const permissions = ["listings:read", "listings:write", "media:write"] as const;
export type Permission = (typeof permissions)[number];
export const validityDays = [30, 90, 365] as const;

const secretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const secretLength = 40;
const keyIdPattern = idPattern("apiKey");
const secretPattern = new RegExp(`^svc_(test|live)_[A-Za-z0-9]{${secretLength}}$`);

export interface ParsedKey {
  id: string;
  environment: "sandbox" | "production";
  secret: string;
}

/**
 * Splits `<id>|<prefix><secret>` and checks its shape, so that malformed keys are refused before
 * any database work. Returns undefined for anything that is not exactly a key of ours.
 */
export function parseKey(value: string): ParsedKey | undefined {
  const bar = value.indexOf("|");
  if (bar < 0 || value.length > 120) return undefined;
  const id = value.slice(0, bar);
  const secret = value.slice(bar + 1);
  if (!keyIdPattern.test(id) || !secretPattern.test(secret)) return undefined;
  return { id, environment: secret.startsWith("svc_live_") ? "production" : "sandbox", secret };
}

export const prefixFor = (environment: "sandbox" | "production") => (environment === "production" ? "svc_live_" : "svc_test_");

export function generateKey(environment: "sandbox" | "production"): { id: string; secret: string; key: string } {
  const id = newId("apiKey");
  const secret = `${prefixFor(environment)}${randomToken(secretLength, secretAlphabet)}`;
  return { id, secret, key: `${id}|${secret}` };
}
