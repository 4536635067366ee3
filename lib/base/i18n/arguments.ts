import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

/** The names of an ICU message's arguments, in the order they first appear (plural and select branches included). */
export function argumentsOf(message: string | MessageFormatElement[]): string[] {
  const names = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if (element.type === TYPE.tag) {
        visit(element.children);
        continue;
      }
      names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select)
        for (const option of Object.values(element.options)) visit(option.value);
    }
  };
  visit(typeof message === "string" ? parse(message, { ignoreTag: true }) : message);
  return [...names];
}
