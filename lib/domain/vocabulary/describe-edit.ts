import type { Locale } from "@/lib/base/i18n";
import { describeFacts } from "./describe-facts";
import { isWriteField, writeFieldNames } from "./fields";

/** One field an edit changes, in words: absent before (added) or after (removed) is null. */
export interface FieldChange {
  name: string;
  label: string;
  before: string | null;
  after: string | null;
}

/**
 * What an edit changes in a listing's document, field by field in the vocabulary's order, each
 * side in words as the reader sees it (`describeFacts`): the moderator judges labels and units,
 * not codes; complete, so that a parcel corner moved shows. A field whose words are the same on both sides is left out.
 */
export function describeEdit(input: {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  locale: Locale;
  words: { yes: string; no: string };
}): FieldChange[] {
  const side = (fields: Record<string, unknown>) =>
    describeFacts({ facts: fields, type: String(fields.type), locale: input.locale, words: input.words, complete: true });
  const before = new Map(side(input.before).map((fact) => [fact.name, fact]));
  const after = new Map(side(input.after).map((fact) => [fact.name, fact]));
  const order = (name: string) => (isWriteField(name) ? writeFieldNames.indexOf(name) : writeFieldNames.length);
  const names = [...new Set([...after.keys(), ...before.keys()])].sort((a, b) => order(a) - order(b));
  return names.flatMap((name) => {
    const was = before.get(name);
    const now = after.get(name);
    if (was?.value === now?.value) return [];
    return [{ name, label: (now ?? was)!.label, before: was?.value ?? null, after: now?.value ?? null }];
  });
}
