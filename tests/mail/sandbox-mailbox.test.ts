import { inArray } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import SandboxMailboxPage from "@/app/sandbox/mailbox/page";
import { database } from "@/db";
import { sandboxMail } from "@/db/schema";
import { resetConfig } from "@/lib/platform/config";
import { publicContext } from "@/lib/platform/context";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { applyRetentionRule } from "@/lib/platform/jobs/retention";
import { retentionRules } from "@/lib/platform/jobs/retention-rules";
import { listSandboxMail } from "@/lib/platform/mail/list-sandbox-mail";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfig();
});

function withEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
}

// Real time: on PostgreSQL other files share the table, and their rows are all recent.
const now = new Date();
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const address = () => `${newId("account")}@example.test`;

async function store(rows: { recipient: string; subject: string; text?: string; createdAt: Date }[]) {
  const { connection } = await database();
  await connection.insert(sandboxMail).values(rows.map((row) => ({ text: "", ...row })));
}

const list = async (input: { recipient?: string; limit: number }) => listSandboxMail({ ctx: publicContext(await database()), input });

const render = async (to?: string) =>
  renderToStaticMarkup(await SandboxMailboxPage({ searchParams: Promise.resolve(to === undefined ? {} : { to }) }));

describe("listSandboxMail", () => {
  it("lists newest first and filters by recipient, up to the limit", async () => {
    const [ana, bob] = [address(), address()];
    await store([
      { recipient: ana, subject: "ana old", createdAt: minutesAgo(30) },
      { recipient: bob, subject: "bob middle", createdAt: minutesAgo(20) },
      { recipient: ana, subject: "ana new", createdAt: minutesAgo(10) },
    ]);

    expect((await list({ recipient: ana, limit: 10 })).map((m) => m.subject)).toEqual(["ana new", "ana old"]);
    expect((await list({ recipient: bob, limit: 10 })).map((m) => m.subject)).toEqual(["bob middle"]);
    expect((await list({ recipient: ana, limit: 1 })).map((m) => m.subject)).toEqual(["ana new"]);

    const everyone = (await list({ limit: 1000 })).filter((m) => m.recipient === ana || m.recipient === bob);
    expect(everyone.map((m) => m.subject)).toEqual(["ana new", "bob middle", "ana old"]);
    const all = await list({ limit: 1000 });
    expect(all.every((m, i) => i === 0 || all[i - 1].createdAt >= m.createdAt)).toBe(true);
  });

  it("is not found when the mailbox is not in use: SMTP_URL set, or production", async () => {
    for (const env of [{ SMTP_URL: "smtp://127.0.0.1:2525" }, { APP_ENV: "production", SMTP_URL: undefined }]) {
      withEnv(env);
      await expect(list({ limit: 10 })).rejects.toSatisfy((error) => error instanceof AppError && error.code === "not_found");
    }
  });
});

describe("/sandbox/mailbox", () => {
  it("shows each message's recipient, subject, time and text, its links clickable, newest first", async () => {
    const to = address();
    await store([
      { recipient: to, subject: "Welcome", text: "Hello.", createdAt: minutesAgo(5) },
      {
        recipient: to,
        subject: "Confirm your e-mail",
        text: "Confirm: https://listings.test/confirm?token=a1&x=2.\n<script>alert(1)</script>",
        createdAt: minutesAgo(1),
      },
    ]);

    const html = await render(to);
    expect(html).toContain("<h1>Sandbox mailbox</h1>");
    expect(html.indexOf("Confirm your e-mail")).toBeLessThan(html.indexOf("Welcome"));
    expect(html).toContain(`To ${to}`);
    expect(html).toContain(`<time dateTime="${minutesAgo(1).toISOString()}">`);
    // The sentence's full stop stays outside the link; the text is escaped, never markup.
    expect(html).toContain('<a href="https://listings.test/confirm?token=a1&amp;x=2">https://listings.test/confirm?token=a1&amp;x=2</a>.');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
  });

  it("filters by the recipient of ?to=", async () => {
    const [ana, bob] = [address(), address()];
    await store([
      { recipient: ana, subject: "for ana", createdAt: minutesAgo(2) },
      { recipient: bob, subject: "for bob", createdAt: minutesAgo(1) },
    ]);

    const html = await render(ana);
    expect(html).toContain("for ana");
    expect(html).not.toContain("for bob");
    expect(await render(address())).toContain("No mail to");
  });

  it("is a 404 when the mailbox is not in use: SMTP_URL set, or production", async () => {
    for (const env of [{ SMTP_URL: "smtp://127.0.0.1:2525" }, { APP_ENV: "production", SMTP_URL: undefined }]) {
      withEnv(env);
      await expect(render()).rejects.toMatchObject({ digest: "NEXT_HTTP_ERROR_FALLBACK;404" });
    }
  });
});

describe("sandbox mailbox retention", () => {
  it("deletes messages older than 7 days", async () => {
    const to = address();
    await store([
      { recipient: to, subject: "day 6", createdAt: new Date(now.getTime() - 6 * 86_400_000) },
      { recipient: to, subject: "day 8", createdAt: new Date(now.getTime() - 8 * 86_400_000) },
    ]);
    const rule = retentionRules.find((candidate) => candidate.name === "sandbox_mail")!;
    expect(rule.keepDays).toBe(7);

    await applyRetentionRule(await database(), { ...rule, where: inArray(sandboxMail.recipient, [to]) }, now);
    expect((await list({ recipient: to, limit: 10 })).map((m) => m.subject)).toEqual(["day 6"]);
  });
});
