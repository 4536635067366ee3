import { beforeEach, describe, expect, it, vi } from "vitest";
import { triggerSandboxEventAction } from "@/app/(portal)/settings/api/webhooks/actions";
import { sandboxEventToken } from "@/app/(portal)/settings/api/webhooks/sandbox-event-token";
import { database } from "@/db";
import { formToken } from "@/lib/adapters/portal/csrf";
import { accountContext } from "@/lib/base/context";
import { resetConfig } from "@/lib/base/config";
import { format, messages, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { listEvents, parseEventId } from "@/lib/domain/events";
import { revokeKey } from "@/lib/domain/keys/revoke-key";
import { triggerableEventTypes } from "@/lib/domain/listings/trigger-sandbox-event";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { accountWithKey } from "../support/fixtures";
import { createListing } from "../support/listings";
import { deliveriesOf, receiver } from "../webhooks/support";

/**
 * The webhooks page's "Send a test event" form: its server action through `portalAction` (the form
 * token, the fields, the answer in the page's language) and the API's service, on the real database.
 * Only the request is a stand-in: who is signed in and the page's language.
 */
const request = vi.hoisted(() => ({ accountId: "", locale: "en" as "en" | "ro" }));

vi.mock("@/lib/adapters/portal/request-locale", () => ({ requestLocale: async () => request.locale }));
vi.mock("@/lib/adapters/portal/session", async () => {
  const { database: db } = await import("@/db");
  const { accountContext: context } = await import("@/lib/base/context");
  const other = async () => {
    throw new Error("only the account's session is used here");
  };
  return {
    requireModerator: other,
    visitorSession: other,
    requireAccount: async () => ({
      account: { id: request.accountId, language: request.locale },
      ctx: context(await db(), { accountId: request.accountId, agency: null }, { locale: request.locale }),
    }),
  };
});

const tokenFor = (accountId: string) => formToken({ id: accountId }, sandboxEventToken, {});

function posted(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

async function signedInWithKey() {
  const owner = await accountWithKey();
  request.accountId = owner.account.id;
  return owner;
}

const eventsOf = async (accountId: string) =>
  (await listEvents({ ctx: accountContext(await database(), { accountId, agency: null }), input: { accountId, limit: 500 } })).data;

beforeEach(() => {
  request.locale = "en";
});

describe("the webhooks page's test event form", () => {
  it.each<Locale>(["en", "ro"])(
    "fires the chosen type for the listing typed (%s), saying its id, and queues its delivery",
    async (locale) => {
      request.locale = locale;
      const owner = await signedInWithKey();
      const listing = await createListing(owner.key);
      const ctx = accountContext(await database(), { accountId: owner.account.id, agency: null });
      const webhook = await createWebhook({ ctx, input: { url: receiver, events: [...triggerableEventTypes] } });
      const state = await triggerSandboxEventAction(
        {},
        posted({ type: "listing.withdrawn", code: ` ${listing.code.toLowerCase()} `, token: tokenFor(owner.account.id) }),
      );
      const [event] = await eventsOf(owner.account.id);
      expect(event).toMatchObject({ type: "listing.withdrawn", data: { code: listing.code, status: "pending", by: "moderation" } });
      const t = pageMessages(locale).webhooks.sandboxEvent;
      expect(state).toEqual({
        ok: true,
        message: format(locale, t.sent, { id: event.id, type: "listing.withdrawn", code: listing.code }),
        values: { type: "listing.withdrawn", code: listing.code },
      });
      expect(await deliveriesOf([webhook.id])).toEqual([expect.objectContaining({ eventSeq: parseEventId(event.id), status: "pending" })]);
    },
  );

  it("says at the field that no listing of the account has the code, another account's included, and writes nothing", async () => {
    const stranger = await accountWithKey();
    const theirs = await createListing(stranger.key);
    const owner = await signedInWithKey();
    for (const locale of ["en", "ro"] as const) {
      request.locale = locale;
      const t = pageMessages(locale).webhooks.sandboxEvent;
      for (const code of [theirs.code, "ZZZZZZZZ"]) {
        const state = await triggerSandboxEventAction({}, posted({ type: "listing.sold", code, token: tokenFor(owner.account.id) }));
        expect(state).toEqual({
          ok: false,
          message: t.notSent,
          fieldErrors: { code: t.noListing },
          values: { type: "listing.sold", code },
        });
      }
    }
    expect(await eventsOf(owner.account.id)).toEqual([]);
    expect(await eventsOf(stranger.account.id)).toEqual([]);
  });

  it("answers empty or unknown fields at their controls, a stale token with the stale-form message, and a keyless account with why", async () => {
    const owner = await signedInWithKey();
    const listing = await createListing(owner.key);
    const token = tokenFor(owner.account.id);
    const empty = await triggerSandboxEventAction({}, posted({ type: "", code: "", token }));
    expect(Object.keys(empty.fieldErrors ?? {}).sort()).toEqual(["code", "type"]);
    expect(empty.fieldErrors?.code).toBe("This field is required.");
    const unknown = await triggerSandboxEventAction({}, posted({ type: "webhook.test", code: listing.code, token }));
    expect(unknown.fieldErrors?.type).toMatch(/^Must be one of: listing\.published, /);
    request.locale = "ro";
    const malformed = await triggerSandboxEventAction({}, posted({ type: "listing.sold", code: "abc", token }));
    expect(malformed.fieldErrors?.code).toBe("Formatul nu este cel cerut.");
    for (const stale of [undefined, tokenFor("acct_someone_else")]) {
      const state = await triggerSandboxEventAction(
        {},
        posted({ type: "listing.sold", code: listing.code, ...(stale ? { token: stale } : {}) }),
      );
      expect(state).toEqual({ ok: false, message: pageMessages("ro").staleForm, values: { type: "listing.sold", code: listing.code } });
    }
    expect(await eventsOf(owner.account.id)).toEqual([]);

    // An account whose keys are all revoked gets no events: the form says why, and nothing is written.
    request.locale = "en";
    const revoked = await signedInWithKey();
    const itsListing = await createListing(revoked.key);
    const ctx = accountContext(await database(), { accountId: revoked.account.id, agency: null });
    await revokeKey({ ctx, input: { id: revoked.keyId } });
    const refused = await triggerSandboxEventAction(
      {},
      posted({ type: "listing.sold", code: itsListing.code, token: tokenFor(revoked.account.id) }),
    );
    expect(refused).toEqual({
      message: messages("en").problems.listing_action_refused.reasons.events_need_key,
      values: { type: "listing.sold", code: itsListing.code },
    });
    expect(await eventsOf(revoked.account.id)).toEqual([]);
  });

  it("does nothing in production, where the form is not shown", async () => {
    const owner = await signedInWithKey();
    const listing = await createListing(owner.key);
    process.env.APP_ENV = "production";
    resetConfig();
    try {
      const state = await triggerSandboxEventAction(
        {},
        posted({ type: "listing.sold", code: listing.code, token: tokenFor(owner.account.id) }),
      );
      expect(state.ok).toBe(false);
    } finally {
      process.env.APP_ENV = "sandbox";
      resetConfig();
    }
    expect(await eventsOf(owner.account.id)).toEqual([]);
  });
});
