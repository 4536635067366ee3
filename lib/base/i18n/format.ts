import { IntlMessageFormat } from "intl-messageformat";
import { argumentsOf } from "./arguments";
import type { Locale } from "./index";

/** What a message's arguments take: plural and `number` arguments a number, `date` ones a Date. */
export type MessageValues = Readonly<Record<string, string | number | Date>>;

/**
 * Formats an ICU message of the catalogues (messages/<locale>.json) with FormatJS: plurals by the
 * language's rules, `{n, number}` and `#` as the language writes numbers. Each message is parsed once
 * per language; the catalogues are the only source of messages, so the cache stays their size. A
 * module of its own so that client components format page texts without shipping the catalogues
 * (index.ts) to the browser. Tags are text here (`<key>` in a message is shown, not parsed). An
 * argument without a value stays visible as `{name}` rather than failing the answer it is part of
 * (the types and tests/unit/catalogues.test.ts keep that from happening).
 */
const parsed = new Map<string, { message: IntlMessageFormat; unfilled: Readonly<Record<string, string>> }>();

function compiled(locale: Locale, message: string) {
  const key = `${locale}\u0000${message}`;
  let found = parsed.get(key);
  if (!found) {
    const formatter = new IntlMessageFormat(message, locale, undefined, { ignoreTag: true });
    const unfilled = Object.fromEntries(argumentsOf(formatter.getAst()).map((name) => [name, `{${name}}`]));
    found = { message: formatter, unfilled };
    parsed.set(key, found);
  }
  return found;
}

export function format(locale: Locale, message: string, values?: MessageValues): string {
  const { message: formatter, unfilled } = compiled(locale, message);
  return String(formatter.format({ ...unfilled, ...values }));
}

/** A message whose arguments are elements (a link, code): the text pieces and the elements, in order. */
export function formatParts<T>(locale: Locale, message: string, values: Readonly<Record<string, string | number | T>>): (string | T)[] {
  const { message: formatter, unfilled } = compiled(locale, message);
  const result = formatter.format<T>({ ...unfilled, ...values });
  return Array.isArray(result) ? result : [result];
}
