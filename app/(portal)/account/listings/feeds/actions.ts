"use server";

import { z } from "zod";
import { createFeed } from "@/lib/domain/feeds/create-feed";
import { deleteFeed } from "@/lib/domain/feeds/delete-feed";
import { requestPull } from "@/lib/domain/feeds/request-pull";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";

const feedsPath = "/account/listings/feeds";
const oneFeed = z.object({ id: text(200) });

/** A number field as the API's body would carry it: empty is absent, digits a number, anything else as typed (refused by the schema). */
const numberField = (value: string): number | string | undefined =>
  value.trim() === "" ? undefined : /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;

export const createFeedAction = portalAction({
  session: "account",
  input: z.object({ url: text(5000), mode: text(20), max_withdrawals: text(20), interval_minutes: text(20), key_id: text(200) }),
  // React resets a form after its action: a refusal puts the fields back.
  values: (input) => input,
  run: async ({ ctx, input, locale }) => {
    const fields = {
      url: input.url,
      mode: input.mode || undefined,
      max_withdrawals: numberField(input.max_withdrawals) ?? null,
      interval_minutes: numberField(input.interval_minutes),
    };
    const feed = await createFeed({ ctx, input: { fields, keyId: input.key_id } });
    return { ok: true, message: format(locale, pageMessages(locale).feeds.create.created, { url: feed.url }) };
  },
  revalidate: [feedsPath],
});

export const pullFeedAction = portalAction({
  session: "account",
  input: oneFeed,
  run: async ({ ctx, input, locale }) => {
    await requestPull({ ctx, input });
    return { ok: true, message: pageMessages(locale).feeds.pullQueued };
  },
  revalidate: [feedsPath],
  // A pull already under way is said in the page's language, and the list shows it.
  revalidateAfterRefusal: true,
});

export const deleteFeedAction = portalAction({
  session: "account",
  input: oneFeed,
  run: async ({ ctx, input, locale }) => {
    await deleteFeed({ ctx, input });
    return { ok: true, message: pageMessages(locale).feeds.deleted };
  },
  revalidate: [feedsPath],
});
