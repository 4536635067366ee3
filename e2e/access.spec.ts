import { expect, test, type Browser, type Page } from "@playwright/test";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { cli, fromOwnAddress, newHolder, postPageForm, signInWithoutBrowser } from "./support";

/**
 * Access as a new holder lives it, in a real browser against the production build: sign-up, the
 * confirmation link from the sandbox mailbox (read as the operator: the page needs a signed-in account), sign-in (and its refusals), "sign in and come back",
 * the password change that ends other sessions, sign-out, and the password reset.
 */

const unique = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * The newest link to `path` mailed to this address, read as a developer does (`mail:list`): the
 * sandbox mailbox page shows only the signed-in account's mail, and this account cannot sign in yet.
 */
async function mailedLink(email: string, path: string): Promise<string> {
  const newest = async () => {
    const { messages } = await cli<{ messages: { text: string }[] }>("mail:list", "--to", email);
    // Trailing punctuation ends the sentence, not the address.
    const links = messages.flatMap((message) => message.text.match(/https?:\/\/[^\s<>"]*[^\s<>".,;:!?'")\]]/g) ?? []);
    return links.find((link) => link.includes(`${path}?token=`));
  };
  await expect.poll(newest).toBeDefined();
  return (await newest())!;
}

async function signUpAndConfirm(browser: Browser, locale: "ro" | "en", email: string, password: string): Promise<void> {
  const texts = pageMessages(locale).access;
  const context = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
  await fromOwnAddress(context);
  const page = await context.newPage();
  await page.goto("/signup");
  await page.getByLabel(texts.name).fill("Ana Pop");
  await page.getByLabel(texts.email).fill(email);
  await page.getByLabel(texts.password).fill(password);
  await page.getByRole("button", { name: texts.signup.submit }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(email);

  await page.goto(await mailedLink(email, "/confirm-email"));
  await page.getByRole("button", { name: texts.confirm.confirm }).click();
  await expect(page).toHaveURL(/\/login\?notice=confirmed/);
  await expect(page.getByRole("main").getByRole("status")).toHaveText(texts.login.confirmed);
  await context.close();
}

async function signIn(page: Page, locale: "ro" | "en", email: string, password: string): Promise<void> {
  const texts = pageMessages(locale).access;
  await page.getByLabel(texts.email).fill(email);
  await page.getByLabel(texts.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: texts.login.submit }).click();
}

for (const locale of ["ro", "en"] as const) {
  test(`sign-up, confirmation, sign-in and back, sign-out (${locale})`, async ({ browser }) => {
    const texts = pageMessages(locale);
    const email = unique(`signup-${locale}`);
    await signUpAndConfirm(browser, locale, email, "a long first password");

    const context = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
    await fromOwnAddress(context);
    const page = await context.newPage();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);

    await signIn(page, locale, email, "not the password");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(texts.access.login.refusals.invalid_credentials);
    await expect(page.getByLabel(texts.access.email)).toHaveValue(email);

    await signIn(page, locale, email, "a long first password");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("heading", { level: 1, name: texts.account.title })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();

    const cookie = (await context.cookies()).find((c) => c.name.includes("session-token"));
    expect(cookie, "the session cookie").toBeDefined();
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe("Lax");

    await page.getByRole("button", { name: texts.access.signOut }).click();
    await expect(page).toHaveURL(/\/login\?notice=signed_out/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?next=/);
    await context.close();
  });
}

test("an unconfirmed account is told to confirm, and is offered a new link", async ({ page }) => {
  const texts = pageMessages("en").access;
  const email = unique("unconfirmed");
  await fromOwnAddress(page.context());
  await page.goto("/signup");
  await page.getByLabel(texts.name).fill("Ion Ionescu");
  await page.getByLabel(texts.email).fill(email);
  await page.getByLabel(texts.password).fill("a long enough password");
  await page.getByRole("button", { name: texts.signup.submit }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(email);

  await page.goto("/login");
  await signIn(page, "en", email, "a long enough password");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(texts.login.refusals.email_unconfirmed);
  await page.getByRole("link", { name: texts.login.resend }).click();
  await page.getByRole("button", { name: texts.confirm.submit }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(email);
});

test("a password change ends the other sessions and keeps this one; the reset link sets a new one", async ({ browser }) => {
  const texts = pageMessages("en");
  const email = unique("password");
  await signUpAndConfirm(browser, "en", email, "the first password");

  const here = await browser.newContext();
  const elsewhere = await browser.newContext();
  for (const context of [here, elsewhere]) {
    await fromOwnAddress(context);
    const page = await context.newPage();
    await page.goto("/login?next=%2Faccount");
    await signIn(page, "en", email, "the first password");
    await expect(page).toHaveURL(/\/account$/);
  }

  const page = here.pages()[0];
  await page.getByLabel(texts.account.password.current).fill("the first password");
  await page.getByLabel(texts.account.password.new).fill("the second password");
  await page.getByRole("button", { name: texts.account.password.submit }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(texts.account.password.done);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: texts.account.title })).toBeVisible();

  const other = elsewhere.pages()[0];
  await other.reload();
  await expect(other).toHaveURL(/\/login\?next=%2Faccount$/);

  await other.goto("/reset-password");
  await other.getByLabel(texts.access.email).fill(email);
  await other.getByRole("button", { name: texts.access.reset.submit }).click();
  await expect(other.getByRole("main").getByRole("status")).toContainText(email);
  await other.goto(await mailedLink(email, "/reset-password"));
  await other.getByLabel(texts.access.reset.newPassword).fill("the third password");
  await other.getByRole("button", { name: texts.access.reset.save }).click();
  // The new password's argon2id hash is memory-hard by design; beside two browsers on two cores it
  // took over the 15 s an expectation waits once (the button still "Saving…"), so this one waits longer.
  await expect(other).toHaveURL(/\/login\?notice=password_reset/, { timeout: 45_000 });
  await signIn(other, "en", email, "the third password");
  await expect(other).toHaveURL(/\/settings\/api\/keys$/);

  // The reset ended the first browser's session too.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
  await here.close();
  await elsewhere.close();
});

test("the sandbox mailbox shows the signed-in account its own mail only; signed out, sign-in comes first", async ({
  playwright,
  baseURL,
}) => {
  // Raw requests, each visitor a request context of its own (its own cookies): what is tested is what the server shows to whom.
  const visitor = () => playwright.request.newContext({ baseURL, extraHTTPHeaders: { "accept-language": "en" } });
  const stranger = await visitor();
  const signedOut = await stranger.get("/sandbox/mailbox", { maxRedirects: 0 });
  expect(signedOut.status()).toBe(307);
  expect(signedOut.headers().location).toBe("/login?next=%2Fsandbox%2Fmailbox");

  // A password reset link for each of two holders, asked for signed out: what a visitor would like to read.
  const [ana, bob] = [await newHolder(), await newHolder()];
  for (const holder of [ana, bob]) {
    const asked = await postPageForm(stranger, "/reset-password", "email", { email: holder.email });
    expect(asked.status()).toBe(200);
  }
  const tokenOf = async (email: string) => {
    const { messages } = await cli<{ messages: { text: string }[] }>("mail:list", "--to", email);
    return messages.map((message) => message.text.match(/reset-password\?token=([\w-]+)/)?.[1]).find(Boolean);
  };
  await expect.poll(() => tokenOf(bob.email)).toBeDefined();
  const [anasToken, bobsToken] = [(await tokenOf(ana.email))!, (await tokenOf(bob.email))!];

  const anas = await visitor();
  await signInWithoutBrowser(anas, ana);
  // React separates adjacent texts with empty comments: read the text as shown.
  const mailbox = (await (await anas.get("/sandbox/mailbox")).text()).replaceAll("<!-- -->", "");
  expect(mailbox).toContain("<h1>Sandbox mailbox</h1>");
  expect(mailbox).toContain(`To ${ana.email}`);
  expect(mailbox).toContain(anasToken);
  expect(mailbox).not.toContain(bob.email);
  expect(mailbox).not.toContain(bobsToken);
  await Promise.all([stranger.dispose(), anas.dispose()]);
});
