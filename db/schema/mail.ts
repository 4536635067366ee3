import { bigserial, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The sandbox mailbox: where mail goes when no SMTP server is configured (the embedded default;
 * docs/accounts.md, Mail).
 * Kept 7 days by the retention job; read by the `/sandbox/mailbox` page.
 */
export const sandboxMail = pgTable(
  "sandbox_mail",
  {
    // Never shown outside the sandbox page, so a plain serial (no prefixed public id); it also orders ties.
    id: bigserial("id", { mode: "number" }).primaryKey(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sandbox_mail_created_idx").on(t.createdAt), index("sandbox_mail_recipient_created_idx").on(t.recipient, t.createdAt)],
);
