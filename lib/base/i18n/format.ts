import type { MessageParams } from "@/lib/base/errors";

/**
 * Fills `{name}` placeholders; a placeholder without a value stays visible rather than vanishing.
 * A module of its own so that client components can fill page texts without shipping the API's
 * catalogues (index.ts) to the browser.
 */
export function format(template: string, params: MessageParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
