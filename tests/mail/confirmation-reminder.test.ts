import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { remindConfirmationDue } from "@/lib/domain/listings/remind-confirmation";
import { systemContext } from "@/lib/base/context";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";
import { restoreEnv, setEnv } from "../support/env";

/** A real SMTP server on a free local port; `refuse` makes it turn every message away. */
const received: { to: string[]; raw: string }[] = [];
let refuse = false;
const server = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  authOptional: true,
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      if (refuse) return callback(new Error("Mailbox unavailable"));
      received.push({
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw: Buffer.concat(chunks).toString("utf8").replace(/\r\n/g, "\n"),
      });
      callback();
    });
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  setEnv({ SMTP_URL: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` });
});

afterAll(async () => {
  restoreEnv();
  await new Promise<void>((resolve) => server.close(resolve));
});

afterEach(() => {
  refuse = false;
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
    refuse = true;
    // The run fails (so the job's run is retried), naming the account whose mail was refused.
    await expect(remindAt(due)).rejects.toThrow(account.id);
    expect(received.filter((message) => message.to.includes(account.email))).toEqual([]);

    refuse = false;
    const later = new Date(due.getTime() + 2 * 3_600_000);
    expect(await remindAt(later)).toEqual({ reminded: 1, mails: 1 });
    expect(await remindAt(new Date(later.getTime() + 3_600_000))).toEqual({ reminded: 0, mails: 0 });
    const delivered = received.filter((message) => message.to.includes(account.email));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].raw).toMatch(/^Subject: Are your listings still available\? Confirm by /m);
    expect(delivered[0].raw).toContain(listing.code);
  });
});
