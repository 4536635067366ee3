import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { sandboxMail } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { sendMail } from "@/lib/infra/mail";
import { freshAccount } from "../portal-services/support";
import { restoreEnv, setEnv } from "../support/env";
import { startSmtpServer, type LocalSmtpServer } from "../support/smtp-server";

/** A real SMTP server on a free local port, requiring the credentials the URL carries. */
let smtp: LocalSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer({ credentials: { user: "mailer", password: "s3cret" } });
});

afterAll(async () => {
  await smtp.close();
});

afterEach(() => {
  restoreEnv();
  vi.restoreAllMocks();
});

const address = () => `${newId("account")}@example.test`;

async function storedFor(recipient: string) {
  const { connection } = await database();
  return connection.select().from(sandboxMail).where(eq(sandboxMail.recipient, recipient));
}

/** The JSON lines the logger writes while `fn` runs. */
async function logLines(fn: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  await fn();
  vi.mocked(process.stderr.write).mockRestore();
  return lines;
}

describe("sendMail", () => {
  it("with SMTP_URL, delivers through SMTP: the server receives recipient, subject and text from MAIL_FROM, and nothing is stored", async () => {
    setEnv({ SMTP_URL: smtp.url, MAIL_FROM: "Listings <no-reply@listings.test>" });
    const to = address();
    await sendMail({ to, subject: "Confirm your e-mail", text: "Open this link:\nhttps://listings.test/confirm?token=abc" });

    const message = smtp.mails.find((candidate) => candidate.to.includes(to));
    expect(message).toBeDefined();
    expect(message!.to).toEqual([to]);
    expect(message!.from).toBe("no-reply@listings.test");
    expect(message!.user).toBe("mailer");
    expect(message!.raw).toMatch(/^Subject: Confirm your e-mail$/m);
    expect(message!.raw).toMatch(new RegExp(`^To: ${to.replace(/[.]/g, "\\.")}$`, "m"));
    expect(message!.raw).toMatch(/^From: Listings <no-reply@listings\.test>$/m);
    expect(message!.raw).toContain("Open this link:\nhttps://listings.test/confirm?token=abc");
    expect(await storedFor(to)).toEqual([]);
  });

  it("with SMTP_URL, sends the HTML part beside the text", async () => {
    setEnv({ SMTP_URL: smtp.url });
    const to = address();
    await sendMail({
      to,
      subject: "Reset your password",
      text: "Reset: https://listings.test/r",
      html: '<p>Reset: <a href="https://listings.test/r">link</a></p>',
    });

    const message = smtp.mails.find((candidate) => candidate.to.includes(to))!;
    expect(message.raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(message.raw).toContain("Reset: https://listings.test/r");
    expect(message.raw).toMatch(/<a href=3D"https:\/\/listings\.test\/r">link<\/a>|<a href="https:\/\/listings\.test\/r">link<\/a>/);
  });

  it("with SMTP_URL, a refused delivery rejects (the caller sees the failure)", async () => {
    setEnv({ SMTP_URL: `smtp://mailer:wrong@127.0.0.1:${smtp.port}` });
    await expect(sendMail({ to: address(), subject: "s", text: "t" })).rejects.toThrow();
  });

  it("without SMTP_URL in the sandbox, stores the message to an account's address in the sandbox mailbox and logs one line with recipient, subject and text", async () => {
    setEnv({ SMTP_URL: undefined, APP_ENV: "sandbox", LOG_LEVEL: "info" });
    const to = (await freshAccount()).email;
    const lines = await logLines(() =>
      sendMail({ to, subject: "Confirm your e-mail", text: "https://listings.test/confirm?token=xyz", html: "<p>hi</p>" }),
    );

    const rows = await storedFor(to);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      recipient: to,
      subject: "Confirm your e-mail",
      text: "https://listings.test/confirm?token=xyz",
      html: "<p>hi</p>",
    });
    expect(rows[0].createdAt).toBeInstanceOf(Date);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", to, subject: "Confirm your e-mail", text: "https://listings.test/confirm?token=xyz" });
    expect(smtp.mails.some((message) => message.to.includes(to))).toBe(false);
  });

  it("without SMTP_URL in production, refuses with a clear error and stores and logs nothing", async () => {
    setEnv({ SMTP_URL: undefined, APP_ENV: "production", LOG_LEVEL: "info" });
    const to = address();
    let failure: unknown;
    const lines = await logLines(async () => {
      failure = await sendMail({ to, subject: "Confirm", text: "https://listings.test/confirm?token=secret" }).catch(
        (error: unknown) => error,
      );
    });

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/SMTP_URL/);
    expect(await storedFor(to)).toEqual([]);
    expect(lines).toEqual([]);
  });
});
