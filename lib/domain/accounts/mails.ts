import { sendMail } from "@/lib/infra/mail";
import { config } from "@/lib/base/config";
import { format, messages, type Locale } from "@/lib/base/i18n";
import type { MailKey, MailParams } from "@/lib/base/i18n/keys";

/** A portal page's address with its query: the links mails carry. */
export function portalLink(path: string, query: Record<string, string> = {}): string {
  const url = new URL(path, config().APP_URL);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** Sends the catalogue's mail `key` in `locale` to `to`. Call it after the deciding transaction commits. */
export async function sendAccountMail<K extends MailKey>(input: {
  to: string;
  locale: Locale;
  key: K;
  params: MailParams<K>;
}): Promise<void> {
  const texts = messages(input.locale).mail[input.key];
  const params = input.params as Record<string, string | number>;
  await sendMail({ to: input.to, subject: format(input.locale, texts.subject, params), text: format(input.locale, texts.text, params) });
}
