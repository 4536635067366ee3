import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { listings } from "@/db/schema";
import { remindConfirmationJob } from "@/lib/platform/jobs/listing-jobs";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { resetConfig } from "@/lib/platform/config";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";

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
  vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
  resetConfig();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetConfig();
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

/** The reminder job's run at `now`, after the occurrence the runner queues on the real clock. */
async function runJob(now: Date) {
  await runDueJobs({ database: await database(), now: new Date(), jobs: [remindConfirmationJob] });
  return runDueJobs({ database: await database(), now, jobs: [remindConfirmationJob] });
}

describe("listings.remind-confirmation through SMTP", () => {
  it("delivers the reminder once, and a refused delivery is tried again by the next run", async () => {
    const { account, listing, remindAt } = await dueListing();
    refuse = true;
    const failed = await runJob(remindAt);
    expect(failed.outcomes).toEqual([expect.objectContaining({ status: "retrying", error: expect.stringContaining(account.id) })]);
    expect(received.filter((message) => message.to.includes(account.email))).toEqual([]);

    refuse = false;
    const later = new Date(remindAt.getTime() + 2 * 3_600_000);
    await runJob(later);
    await runJob(new Date(later.getTime() + 3_600_000));
    const delivered = received.filter((message) => message.to.includes(account.email));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].raw).toMatch(/^Subject: Are your listings still available\? Confirm by /m);
    expect(delivered[0].raw).toContain(listing.code);
  });
});
