import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { remindConfirmationDue } from "@/lib/domain/listings/remind-confirmation";
import { systemContext } from "@/lib/base/context";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { restoreEnv, setEnv } from "../support/env";
import { startSmtpServer, type LocalSmtpServer } from "../support/smtp-server";

/** A real SMTP server on a free local port; its `refuse` turns every message away. */
let smtp: LocalSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  setEnv({ SMTP_URL: smtp.url });
});

afterAll(async () => {
  restoreEnv();
  await smtp.close();
});

afterEach(() => {
  smtp.refuse = false;
});

const dayMs = 86_400_000;

async function dueListing() {
  const { account, key } = await accountWithKey({ account: { locale: "en" } });
  const listing = await activeListing(key);
  // Far from the real clock: on PostgreSQL other test files' listing jobs act on every listing near it.
  const confirmedAt = new Date(Date.now() + (1000 + Math.floor(Math.random() * 50_000)) * dayMs);
  const { connection: db } = await database();
  await db.update(listings).set({ confirmedAt }).where(eq(listings.code, listing.code));
  return { account, listing, remindAt: new Date(confirmedAt.getTime() + 27.5 * dayMs) };
}

/**
 * What the hourly job runs, at `now`. Called directly rather than through the jobs table: on
 * PostgreSQL the suite shares one database, and another file's run may take the job's occurrence.
 */
async function remindAt(now: Date) {
  return remindConfirmationDue({ ctx: systemContext(await database(), { now }) });
}

describe("listings.remind-confirmation through SMTP", () => {
  it("delivers the reminder once, and a refused delivery is tried again by the next run", async () => {
    const { account, listing, remindAt: due } = await dueListing();
    smtp.refuse = true;
    // The run fails (so the job's run is retried), naming the account whose mail was refused.
    await expect(remindAt(due)).rejects.toThrow(account.id);
    expect(smtp.mails.filter((message) => message.to.includes(account.email))).toEqual([]);

    smtp.refuse = false;
    const later = new Date(due.getTime() + 2 * 3_600_000);
    expect(await remindAt(later)).toEqual({ reminded: 1, mails: 1 });
    expect(await remindAt(new Date(later.getTime() + 3_600_000))).toEqual({ reminded: 0, mails: 0 });
    const delivered = smtp.mails.filter((message) => message.to.includes(account.email));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].raw).toMatch(/^Subject: Are your listings still available\? Confirm by /m);
    expect(delivered[0].raw).toContain(listing.code);
  });
});
