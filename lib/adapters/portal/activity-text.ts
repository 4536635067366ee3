import type { ActivityActor } from "@/lib/domain/accounts/activity-actor";
import type { ActivityEntry } from "@/lib/domain/accounts/list-activity";
import { format, type Locale } from "@/lib/base/i18n";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

type ActivityTexts = PageMessages["activity"];

const hasSentence = (texts: ActivityTexts, action: string): action is keyof ActivityTexts["actions"] =>
  Object.hasOwn(texts.actions, action);

/**
 * An activity entry as a sentence in the page's language: the catalogue's sentence for its action,
 * with the entry's details (a key's or an app's name) and subject; an action without a sentence
 * (recorded by a newer service than this page) is shown by its code.
 */
export function activitySentence(
  entry: Pick<ActivityEntry, "action" | "details" | "subjectId">,
  texts: ActivityTexts,
  locale: Locale,
): string {
  if (!hasSentence(texts, entry.action)) return format(locale, texts.unknownAction, { code: entry.action });
  return format(locale, texts.actions[entry.action], { name: entry.details ?? entry.subjectId ?? "-", subject: entry.subjectId ?? "-" });
}

/** Who did it, relative to the viewing account; a key by its name when the account still lists it. */
export function activityWho(by: ActivityActor, texts: ActivityTexts, keyNames: ReadonlyMap<string, string>, locale: Locale): string {
  switch (by.kind) {
    case "you":
      return texts.actors.you;
    case "key": {
      const name = keyNames.get(by.keyId);
      return name === undefined ? format(locale, texts.actors.unknownKey, { id: by.keyId }) : format(locale, texts.actors.key, { name });
    }
    case "operator":
      return texts.actors.operator;
    case "system":
      return texts.actors.system;
    case "moderator":
      return texts.actors.moderator;
    case "link":
      return texts.actors.link;
    case "other_account":
      return texts.actors.otherAccount;
    case "unknown":
      return texts.actors.unknown;
  }
}
