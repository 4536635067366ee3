import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { mailDelivery } from "@/lib/platform/config";
import { pageContext } from "@/lib/platform/context";
import { listSandboxMail } from "@/lib/platform/mail/list-sandbox-mail";

export const metadata: Metadata = { title: "Sandbox mailbox", robots: { index: false } };

type Props = { searchParams: Promise<{ to?: string | string[] }> };

const shown = 50;

/**
 * The sandbox mailbox (DESIGN §2): the mail the app would have sent, with its links, for a developer
 * on their own machine. It shows every account's messages to whoever opens it, so it exists only while
 * the mailbox is in use (APP_ENV=sandbox without SMTP_URL); a sandbox deployed for others sets
 * SMTP_URL, which makes this page a 404. English only: a developer's tool, not the product.
 */
export default async function SandboxMailboxPage({ searchParams }: Props) {
  // Reading the query first makes the page render per request, so the check below sees the running server's settings.
  const to = (await searchParams).to;
  if (mailDelivery() !== "sandbox-mailbox") notFound();
  const recipient = typeof to === "string" && to.trim() !== "" ? to.trim() : undefined;
  const messages = await listSandboxMail({ ctx: await pageContext(), input: { recipient, limit: shown } });
  return (
    <div lang="en">
      <h1>Sandbox mailbox</h1>
      <p className="muted">
        Mail the sandbox sent without an SMTP server (SMTP_URL unset), newest first, kept 7 days. The latest {shown} are shown.
      </p>
      <form method="get" role="search">
        <label htmlFor="mailbox-to">Recipient</label>{" "}
        <input id="mailbox-to" name="to" type="email" defaultValue={recipient ?? ""} autoComplete="off" />{" "}
        <button type="submit">Filter</button>
        {recipient && (
          <>
            {" "}
            <a href="/sandbox/mailbox">All recipients</a>
          </>
        )}
      </form>
      {messages.length === 0 ? (
        <p>{recipient ? `No mail to ${recipient}.` : "No mail yet."}</p>
      ) : (
        <ul aria-label="Messages">
          {messages.map((message) => (
            <li key={message.id}>
              <article aria-labelledby={`mail-${message.id}`}>
                <h2 id={`mail-${message.id}`}>{message.subject}</h2>
                <p className="muted">
                  To {message.recipient} ·{" "}
                  <time dateTime={message.createdAt.toISOString()}>
                    {message.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC
                  </time>
                </p>
                <p>
                  <MessageText text={message.text} />
                </p>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// Trailing punctuation ends the sentence, not the address.
const linkPattern = /(https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]])/;

/** The text as sent, its line breaks kept and its http(s) addresses clickable (no other scheme is linked). */
function MessageText({ text }: { text: string }) {
  return text.split("\n").map((line, i) => (
    <span key={i}>
      {i > 0 && <br />}
      {line.split(linkPattern).map((part, j) =>
        j % 2 === 1 ? (
          <a key={j} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </span>
  ));
}
