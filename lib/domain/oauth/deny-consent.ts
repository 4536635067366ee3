import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { errorRedirect, localeOf, registeredClient, type AuthorizeRequest } from "./internal/authorize-request";

/** The account holder presses Deny: back to the app with `error=access_denied` and its `state` (RFC 6749 §4.1.2.1). */
export async function denyConsent({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: AuthorizeRequest;
}): Promise<{ redirectTo: string }> {
  const registered = await registeredClient(ctx, input.client.id, input.redirectUri);
  if (!registered.found) throw notFound();
  return { redirectTo: errorRedirect(input.redirectUri, new AppError("access_denied"), localeOf(ctx), input.state || undefined) };
}
