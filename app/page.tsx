import type { Metadata } from "next";
import Link from "next/link";
import { fill } from "@/components/fill";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { publicPageMetadata } from "@/lib/adapters/portal/page-metadata";
import { signedInAccount } from "@/lib/adapters/portal/session";
import { config, mailDelivery } from "@/lib/base/config";
import { demoEmail, sandboxPassword } from "@/lib/domain/seed/accounts";
import { ReferenceLink } from "@/components/reference-link";
import "./home.css";

export async function generateMetadata(): Promise<Metadata> {
  const locale = await requestLocale();
  const { site } = pageMessages(locale);
  // The root layout's title template would repeat the site's name: the home page's title is the name alone.
  return {
    ...publicPageMetadata({ title: site.name, description: site.description, path: "/", siteName: site.name, locale }),
    title: { absolute: site.name },
  };
}

/**
 * The landing page: three ways in, one per kind of visitor (someone looking for a property, an
 * account holder, an integrator), and in the sandbox how to try it with the demo account.
 */
export default async function Home() {
  const [locale, account] = await Promise.all([requestLocale(), signedInAccount()]);
  const { site, home } = pageMessages(locale);
  const sandbox = config().APP_ENV === "sandbox";
  return (
    <div className="landing">
      <h1>{site.name}</h1>
      <p className="lead">{home.lead}</p>
      <ul className="paths" aria-label={home.paths}>
        <li>
          <section aria-labelledby="path-visitors" className="path">
            <h2 id="path-visitors">{home.visitors.title}</h2>
            <p>{home.visitors.text}</p>
            <p className="path-actions">
              <Link href="/listings" className="button-link">
                {home.visitors.action}
              </Link>
            </p>
          </section>
        </li>
        <li>
          <section aria-labelledby="path-holders" className="path">
            <h2 id="path-holders">{home.holders.title}</h2>
            <p>{home.holders.text}</p>
            <p className="path-actions">
              {account ? (
                <Link href="/account/listings" className="button-link">
                  {home.holders.signedIn}
                </Link>
              ) : (
                <>
                  <Link href="/login" className="button-link">
                    {home.holders.signIn}
                  </Link>{" "}
                  <Link href="/signup">{home.holders.signUp}</Link>
                </>
              )}
            </p>
          </section>
        </li>
        <li>
          <section aria-labelledby="path-integrators" className="path">
            <h2 id="path-integrators">{home.integrators.title}</h2>
            <p>{fill(locale, home.integrators.text, { api: <code>/api/v1</code> })}</p>
            <p className="path-actions">
              <Link href="/docs/quickstart" className="button-link">
                {home.integrators.action}
              </Link>
            </p>
            <ul className="path-more">
              <li>
                <ReferenceLink>{home.integrators.reference}</ReferenceLink>
              </li>
              <li>
                <a href="/api/v1/openapi.json">{home.integrators.document}</a>
              </li>
              <li>
                <Link href="/api/v1/schema" prefetch={false}>
                  {fill(locale, home.integrators.vocabulary, { endpoint: <code>GET /api/v1/schema</code> })}
                </Link>
              </li>
            </ul>
          </section>
        </li>
      </ul>
      {sandbox ? (
        <aside aria-labelledby="sandbox-note" className="card sandbox-note">
          <h2 id="sandbox-note">{home.sandbox.title}</h2>
          <p>
            {fill(locale, home.sandbox.text, {
              email: <code>{demoEmail}</code>,
              password: <code>{sandboxPassword}</code>,
              receiver: <Link href="/sandbox/webhooks">{home.sandbox.receiver}</Link>,
              mailbox:
                mailDelivery() === "sandbox-mailbox" ? <Link href="/sandbox/mailbox">{home.sandbox.mailbox}</Link> : home.sandbox.mailbox,
            })}
          </p>
        </aside>
      ) : null}
    </div>
  );
}
