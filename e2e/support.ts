import { execFileSync } from "node:child_process";
import type { Browser, Page } from "@playwright/test";
import { pageMessages } from "../lib/platform/i18n/page-messages";

/**
 * Runs an operator command against the e2e server's database. The server holds the PGlite folder,
 * so the CLI sends the command through the server's operator channel (never opening the folder).
 */
export function cli<T = Record<string, unknown>>(...args: string[]): T {
  const output = execFileSync("npx", ["tsx", "scripts/cli.ts", ...args], {
    env: { ...process.env, PGLITE_DIR: `.data/e2e-${process.env.E2E_PORT}` },
    encoding: "utf8",
  });
  return JSON.parse(output) as T;
}

export const demoKey = (permissions = "listings:read,listings:write,media:write") =>
  cli<{ key: string }>(
    "key:create",
    "--email",
    "demo@example.com",
    "--name",
    `e2e ${Date.now()}`,
    "--permissions",
    permissions,
    "--days",
    "30",
  ).key;

export interface Holder {
  email: string;
  password: string;
  id: string;
}

/** A new confirmed account made by the operator's CLI (each test its own, so tests never share keys or logs). */
export function newHolder(options: { locale?: "ro" | "en"; agency?: string; role?: "owner" | "admin" | "agent" } = {}): Holder {
  const email = `holder-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = "a holder's password";
  const extra = options.agency ? ["--agency", options.agency, "--role", options.role ?? "owner"] : [];
  const created = cli<{ id: string }>(
    "account:create",
    "--email",
    email,
    "--password",
    password,
    "--name",
    "Maria Holder",
    "--locale",
    options.locale ?? "en",
    ...extra,
  );
  return { email, password, id: created.id };
}

/** A browser page signed in as `holder` through the sign-in form, in the holder's language (the account's). */
export async function signedInPage(browser: Browser, holder: Holder, locale: "ro" | "en" = "en"): Promise<Page> {
  const context = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
  const page = await context.newPage();
  await signIn(page, holder, locale);
  return page;
}

/** Signs `page` in as `holder` through the sign-in form (the page's language is the one of `locale`). */
export async function signIn(page: Page, holder: Holder, locale: "ro" | "en" = "en"): Promise<void> {
  const texts = pageMessages(locale).access;
  await page.goto("/login?next=%2Faccount");
  await page.getByLabel(texts.email).fill(holder.email);
  await page.getByLabel(texts.password, { exact: true }).fill(holder.password);
  await page.getByRole("button", { name: texts.login.submit }).click();
  await page.waitForURL(/\/account$/);
}
