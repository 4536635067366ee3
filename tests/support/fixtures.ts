import { database } from "@/db";
import { createAccount, type CreateAccountInput } from "@/lib/domain/accounts/create-account";
import { operatorContext } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { createKey } from "@/lib/domain/keys/create-key";
import type { Permission } from "@/lib/domain/keys/format";
import { createdKeys } from "./created-keys";
import { expectDocumented } from "./documented";

/** The password of every account the fixtures make, and its argon2id hash, made once (tests/accounts/passwords.test.ts checks it). */
export const fixturePassword = "correct horse battery";
export const fixturePasswordHash = "$argon2id$v=19$m=19456,t=2,p=1$oYw1kW3G8VK0/UCVZhvWNw$XrDQ0DcAmWqJ60wzyeARPz9ws5yw2D+3PvBkabhZvEw";

export const allPermissions: Permission[] = ["listings:read", "listings:write", "media:write"];

export async function operatorCtx() {
  return operatorContext(await database());
}

export { createdKeys };

/** A fresh confirmed account (each test makes its own) with one key holding `permissions`. */
export async function accountWithKey(options: { permissions?: Permission[]; account?: Partial<CreateAccountInput> } = {}) {
  const ctx = await operatorCtx();
  const email = `${newId("account")}@example.test`;
  const account = await createAccount({ ctx, input: { email, passwordHash: fixturePasswordHash, ...options.account } });
  const key = await createKey({
    ctx,
    input: { accountId: account.id, name: "test key", permissions: options.permissions ?? allPermissions, days: 30 },
  });
  createdKeys.push(key.key);
  return { account, key: key.key, keyId: key.id };
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/**
 * Calls a route handler the way Next.js does, with a real Request. The answer of a declared handler
 * is checked against its declaration, the source of the OpenAPI document (documented.ts).
 */
export async function call<P = Record<string, never>>(
  handler: Handler<P>,
  options: {
    path: string;
    method?: string;
    key?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    params?: P;
  },
) {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const request = new Request(`http://localhost:3000/api/v1${options.path}`, { method: options.method ?? "GET", headers, body });
  const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, any>) : undefined;
  expectDocumented(handler, response.status, json);
  return { status: response.status, headers: response.headers, json, text };
}
