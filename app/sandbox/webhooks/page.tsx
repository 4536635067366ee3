import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { notFound } from "next/navigation";
import { fill } from "@/components/fill";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { requireAccount } from "@/lib/adapters/portal/session";
import { listSandboxReceipts, sandboxReceiverEnabled, type SandboxReceipt } from "@/lib/domain/webhooks/sandbox-receiver";
import "./receiver.css";

export async function generateMetadata(): Promise<Metadata> {
  const { sandboxReceiver } = pageMessages(await requestLocale());
  return { title: sandboxReceiver.title, robots: { index: false } };
}

const shown = 50;

/**
 * The sandbox's webhook receiver (README, Sandbox data): what the account's receiver address got,
 * newest first, each delivery with whether its signature verified. The account's own deliveries
 * only; signed out, sign-in comes first (and returns here). Not found outside the sandbox.
 */
export default async function SandboxWebhooksPage() {
  // Rendered per request, so the check below sees the running server's settings.
  await connection();
  if (!sandboxReceiverEnabled()) notFound();
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { sandboxReceiver: text, shell } = pageMessages(locale);
  const { url, receipts } = await listSandboxReceipts({ ctx, input: { limit: shown } });
  const dates = portalDateTime(locale, "second");
  return (
    <>
      <h1>{text.title}</h1>
      <p>{text.intro}</p>
      <p>{fill(locale, text.address, { url: <code className="receiver-url">{url}</code> })}</p>
      <p className="muted">
        {fill(locale, text.addressHint, {
          // The menu's own words, so the way there cannot drift from what the menu says.
          menu: <Link href="/settings/api/webhooks">{`${shell.apiSettings} → ${shell.webhooks}`}</Link>,
        })}
      </p>
      {receipts.length === 0 ? (
        <p>{text.empty}</p>
      ) : (
        <>
          <p className="muted">{format(locale, text.kept, { count: shown })}</p>
          <ul aria-label={text.list} className="receipts">
            {receipts.map((receipt) => (
              <li key={receipt.id}>
                <Receipt
                  receipt={receipt}
                  locale={locale}
                  text={text}
                  received={format(locale, text.received, { date: dates.format(receipt.receivedAt) })}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

type Texts = ReturnType<typeof pageMessages>["sandboxReceiver"];

function Receipt({ receipt, locale, text, received }: { receipt: SandboxReceipt; locale: Locale; text: Texts; received: string }) {
  const heading = `receipt-${receipt.id}`;
  const ids = [
    receipt.messageId ? format(locale, text.messageId, { id: receipt.messageId }) : null,
    receipt.webhookId ? format(locale, text.webhook, { id: receipt.webhookId }) : null,
  ].filter(Boolean);
  return (
    <article aria-labelledby={heading} className="card receipt">
      <h2 id={heading}>
        <code>{receipt.eventType ?? text.unknownType}</code>
      </h2>
      <p>
        <time dateTime={receipt.receivedAt.toISOString()}>{received}</time> ·{" "}
        {receipt.verified ? (
          <span className="badge ok">✓ {text.verified}</span>
        ) : (
          <>
            <span className="badge bad">✗ {text.notVerified}</span>
            {receipt.failure ? ` ${text.failure[receipt.failure]}` : null}
          </>
        )}
      </p>
      {ids.length > 0 ? <p className="muted">{ids.join(" · ")}</p> : null}
      <details>
        <summary>{text.headers}</summary>
        <pre className="receipt-body">
          {Object.entries(receipt.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join("\n")}
        </pre>
      </details>
      <pre className="receipt-body" tabIndex={0} aria-label={text.body}>
        {pretty(receipt.body)}
      </pre>
    </article>
  );
}

/** The body as JSON indented when it is JSON, else as it came; React escapes it either way. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
