/**
 * Removes secrets before anything is stored in the API log: members whose name says secret, and any
 * string that carries one of our secret formats (API keys, webhook secrets, client secrets).
 */
const secretMember = /pass(word)?|secret|token|authorization|api_?key|code_verifier/i;
const secretValue = /(svc_(test|live)_|whsec_|svcs_)[A-Za-z0-9+/=_-]+/g;
export const redacted = "[redacted]";

export function redactSecrets(value: unknown): unknown {
  if (typeof value === "string") return value.replace(secretValue, redacted);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, member]) => [name, secretMember.test(name) ? redacted : redactSecrets(member)]),
    );
  }
  return value;
}
