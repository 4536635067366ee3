import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { checkAuthorizeRequest } from "@/lib/domain/oauth/check-authorize-request";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formToken } from "@/lib/adapters/portal/csrf";
import { requireAccount } from "@/lib/adapters/portal/session";
import { ConsentForm } from "./consent-form";
import { consentFields, consentToken } from "./consent-request";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).consent.pageTitle, robots: { index: false }, referrer: "no-referrer" };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * GET /oauth/authorize – the consent request (docs/accounts.md, OAuth). A signed-out holder signs in first and
 * comes back here with the same query. Until the app and its exact redirect address are known, an
 * error is shown here and never redirected; after that, errors go back to the app. Like every page,
 * it cannot be framed (`frame-ancestors 'none'`), so nobody can overlay the Allow button.
 */
export default async function ConsentPage({ searchParams }: Props) {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const texts = pageMessages(locale).consent;
  const check = await checkAuthorizeRequest({ ctx, input: await searchParams });
  if (check.kind === "redirect_error") redirect(check.redirectTo);
  if (check.kind === "invalid_client_or_redirect") {
    return (
      <section className="narrow" aria-labelledby="consent-error">
        <h1 id="consent-error">{texts.errorTitle}</h1>
        <p>{texts.errorIntro}</p>
        <p className="notice error">{check.detail}</p>
        <p>{texts.errorAdvice}</p>
      </section>
    );
  }
  // The name is the app's own claim: React renders it, and every other text from the app, as text, never markup.
  const app = check.client.name;
  const returnUrl = new URL(check.redirectUri);
  const returnHost = returnUrl.host;
  const { documentHost } = check.client;
  return (
    <section className="narrow" aria-labelledby="consent-title">
      <h1 id="consent-title">{format(locale, texts.title, { app })}</h1>
      {check.client.selfRegistered ? (
        <div className="notice warning" role="note">
          <p>
            {documentHost
              ? format(locale, texts.metadataDocument, { app, host: documentHost, returnHost })
              : format(locale, texts.selfRegistered, { app, host: returnHost })}
          </p>
          {check.client.clientUri ? <p>{format(locale, texts.clientUri, { uri: check.client.clientUri })}</p> : null}
          {returnUrl.protocol === "http:" ? <p>{format(locale, texts.loopbackReturn, { app, host: returnHost })}</p> : null}
        </div>
      ) : null}
      <p>{format(locale, texts.intro, { app, account: account.email })}</p>
      <p>{format(locale, texts.canDo, { app })}</p>
      <ul>
        {check.scope.map((permission) => (
          <li key={permission}>
            <code>{permission}</code>: {texts.permissions[permission]}
          </li>
        ))}
      </ul>
      <p className="muted">{format(locale, texts.keyNote, { app })}</p>
      {check.resource ? <p className="muted">{format(locale, texts.resource, { resource: check.resource })}</p> : null}
      <p className="muted">{format(locale, texts.returnNote, { origin: new URL(check.redirectUri).origin })}</p>
      <ConsentForm fields={consentFields(check)} token={formToken(account, consentToken, consentFields(check))} texts={texts} />
    </section>
  );
}
