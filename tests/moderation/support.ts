import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { database } from "@/db";
import { moderatorContext } from "@/lib/base/context";
import { accountWithKey, call } from "../support/fixtures";

/** A moderator account (with a key, so its own listings can be made through the API) and its desk context. */
export async function newModerator(account: { agency?: string; role?: "owner" | "admin" | "agent" } = {}) {
  const created = await accountWithKey({ account: { moderator: true, ...account } });
  return { ...created, ctx: moderatorContext(await database(), { accountId: created.account.id }) };
}

/** The events the key's account can read, oldest first. */
export const eventsOf = async (key: string) =>
  (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: Record<string, unknown> }[];

/** An edit of a published listing: it waits for moderation (202). */
export async function editPublished(key: string, code: string, body: Record<string, unknown>) {
  const edited = await call(PATCH, { path: `/listings/${code}`, method: "PATCH", key, body, params: { code } });
  if (edited.status !== 202) throw new Error(`edit not sent to moderation: ${edited.status} ${edited.text}`);
}
