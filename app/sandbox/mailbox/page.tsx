import type { Metadata } from "next";
import { connection } from "next/server";
import { notFound } from "next/navigation";
import { mailDelivery } from "@/lib/base/config";
import { listOwnSandboxMail } from "@/lib/infra/mail/list-sandbox-mail";
import { requireAccount } from "@/lib/adapters/portal/session";

export const metadata: Metadata = { title: "Sandbox mailbox", robots: { index: false } };

const shown = 50;

/**
 * The sandbox mailbox (docs/accounts.md, Mail): the mail the app would have sent to the signed-in account, with
 * its links. Its own mail only: the mailbox holds password reset links, and the sandbox is public.
 * Signed out, sign-in comes first (and returns here). It exists only while the mailbox is in use
 * (APP_ENV=sandbox without SMTP_URL): otherwise a 404. English only: a developer's tool, not the product.
 */
export default async function SandboxMailboxPage() {
  // Rendered per request, so the check below sees the running server's settings.
  await connection();
  if (mailDelivery() !== "sandbox-mailbox") notFound();
  const { account, ctx } = await requireAccount();
  const messages = await listOwnSandboxMail({ ctx, input: { limit: shown } });
  return (
    <div lang="en">
      <h1>Sandbox mailbox</h1>
      <p className="muted">
        Mail the sandbox sent to {account.email} without an SMTP server (SMTP_URL unset), newest first, kept 7 days. The latest {shown} are
        shown.
      </p>
      {messages.length === 0 ? (
        <p>No mail yet.</p>
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
