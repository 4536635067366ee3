import { expect, test, type Page } from "@playwright/test";
import { format, messages } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { checkPage, cli, newHolder, signedInPage } from "./support";

/**
 * The API settings as a holder lives them, in a real browser against the production build: a key
 * made in the page and shown once, used against the API, revoked after a confirmation; the 10-key
 * limit; the activity log; the agency members page (owners and admins only); the language remembered
 * on the account; and each page accessible and without horizontal scroll at 360 px, in both languages.
 */

const keysPath = "/settings/api/keys";
const activityPath = "/settings/api/activity";
const membersPath = "/account/members";

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** Creates a key through the page's form; answers the whole key from the one-time box. */
async function createInPage(page: Page, locale: "ro" | "en", name: string, extra: string[] = []): Promise<string> {
  const t = pageMessages(locale).apiKeys;
  await page.getByLabel(t.create.name, { exact: true }).fill(name);
  for (const permission of extra) await page.getByRole("checkbox", { name: permission }).check();
  await page.getByRole("radio", { name: format(locale, t.create.days, { days: 30 }) }).check();
  await page.getByRole("button", { name: t.create.submit }).click();
  await expect(page.getByRole("heading", { level: 2, name: format(locale, t.created.heading, { name }) })).toBeFocused();
  return (await page.locator("[data-secret]").textContent())!;
}

const cliKey = (email: string, name: string) =>
  cli<{ id: string }>("key:create", "--email", email, "--name", name, "--permissions", "listings:read", "--days", "30");

test("a key made in the page is shown once, works, and after a confirmed revocation gets 401; the activity says so", async ({
  browser,
}) => {
  const t = pageMessages("en").apiKeys;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(keysPath);
  await expect(page.getByText(format("en", t.usage, { used: 0, limit: 10 }))).toBeVisible();
  await expect(page.getByText(t.list.empty)).toBeVisible();

  const key = await createInPage(page, "en", "Site sync", ["listings:write"]);
  expect(key).toMatch(/^[^|]+\|svc_test_[A-Za-z0-9]{40}$/);
  const secret = pageMessages("en").secret;
  const box = page.getByRole("region", { name: format("en", t.created.heading, { name: "Site sync" }) });
  await expect(box.getByText(t.created.key)).toBeVisible();
  await expect(box.getByText(secret.warning)).toBeVisible();
  await box.getByRole("button", { name: secret.copy }).click();
  await expect(box.getByRole("status")).toHaveText(secret.copied);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  await expect(page.getByText(format("en", t.usage, { used: 1, limit: 10 }))).toBeVisible();
  const row = page.getByRole("row", { name: /Site sync/ });
  await expect(row).toContainText(key.split("|")[0]);
  await expect(row).toContainText("listings:read");
  await expect(row).toContainText("listings:write");
  await expect(row).not.toContainText("media:write");
  await expect(row).toContainText(t.list.originAccount);
  await expect(row).toContainText(t.list.statuses.active);
  await expect(row).toContainText(t.list.never);

  const ping = await page.request.get("/api/v1/ping", { headers: { authorization: `Bearer ${key}` } });
  expect(ping.status(), await ping.text()).toBe(200);
  expect((await ping.json()).data.key.name).toBe("Site sync");

  // Shown once: a new load of the page has the key's id, never its secret.
  await page.reload();
  await expect(page.locator("[data-secret]")).toHaveCount(0);
  expect(await page.content()).not.toContain(key.split("|")[1]);
  await expect(row).toContainText(t.list.statuses.active);

  // Revocation asks first; Escape goes back, all by keyboard.
  const revoke = page.getByRole("button", { name: format("en", t.revoke.buttonLabel, { name: "Site sync" }) });
  await revoke.focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("button", { name: format("en", t.revoke.confirm, { name: "Site sync" }) });
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(revoke).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Enter");

  const done = page.getByRole("status").filter({ hasText: format("en", t.revoke.done, { name: "Site sync" }) });
  await expect(done).toBeFocused();
  await expect(row).toContainText(t.list.statuses.revoked);
  await expect(revoke).toHaveCount(0);
  await expect(page.getByText(format("en", t.usage, { used: 0, limit: 10 }))).toBeVisible();
  const refused = await page.request.get("/api/v1/ping", { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);

  const a = pageMessages("en").activity;
  await page.goto(activityPath);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toContainText(format("en", a.actions["api_key.revoked"], { name: "Site sync" }));
  await expect(rows.nth(1)).toContainText(a.actors.you);
  await expect(rows.nth(2)).toContainText(format("en", a.actions["api_key.created"], { name: "Site sync" }));
  await expect(rows.nth(2)).toContainText(a.actors.you);
  await expect(page.getByRole("row", { name: new RegExp(a.actions["account.created"]) })).toContainText(a.actors.operator);

  await page.goto(`${activityPath}?cursor=not-a-cursor`);
  await expect(page.getByRole("main").getByRole("alert")).toContainText(a.badCursor);
  await page.context().close();
});

test("the activity pages with More, the cursor in the address, and back to the newest", async ({ browser }) => {
  // 60 entries, two pages of 50: 10 keys made and revoked, three times (at most 10 are usable). The
  // first test makes and revokes a key through the page, so here the operator's CLI makes them, but
  // for the last key, made and revoked in the page for what the page shows of its one-time box.
  const t = pageMessages("en").apiKeys;
  const a = pageMessages("en").activity;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder);
  const revokeInPage = async (name: string) => {
    await page.getByRole("button", { name: format("en", t.revoke.buttonLabel, { name }) }).click();
    await page.getByRole("button", { name: format("en", t.revoke.confirm, { name }) }).click();
    await expect(page.getByRole("status").filter({ hasText: format("en", t.revoke.done, { name }) })).toBeVisible();
  };
  const keysByCli = async (round: number, count: number) => {
    const ids: string[] = [];
    for (let n = 1; n <= count; n += 1) ids.push((await cliKey(holder.email, `R${round} K${n}`)).id);
    return ids;
  };
  for (const round of [1, 2]) {
    for (const id of await keysByCli(round, 10)) await cli("key:revoke", "--id", id);
  }
  const lastRound = await keysByCli(3, 9);
  await page.goto(keysPath);
  await createInPage(page, "en", "R3 K10");
  // The key just made stays shown while another is revoked, and goes with its own revocation.
  await revokeInPage("R3 K1");
  await expect(page.locator("[data-secret]")).toHaveCount(1);
  for (const id of lastRound.slice(1)) await cli("key:revoke", "--id", id);
  await revokeInPage("R3 K10");
  await expect(page.locator("[data-secret]")).toHaveCount(0);

  await page.goto(activityPath);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(51);
  await expect(rows.nth(1)).toContainText(format("en", a.actions["api_key.revoked"], { name: "R3 K10" }));
  await expect(page.getByRole("link", { name: a.newest })).toHaveCount(0);
  await page.getByRole("link", { name: a.more }).click();
  await expect(page).toHaveURL(/\/settings\/api\/activity\?cursor=[A-Za-z0-9_-]+$/);
  // The 51st entry onwards: the first round's last creations, then the account's own creation.
  await expect(rows).toHaveCount(1 + 11);
  await expect(rows.nth(1)).toContainText(format("en", a.actions["api_key.created"], { name: "R1 K10" }));
  await expect(rows.nth(11)).toContainText(a.actions["account.created"]);
  await expect(page.getByRole("link", { name: a.more })).toHaveCount(0);
  await page.getByRole("link", { name: a.newest }).click();
  await expect(page).toHaveURL(new RegExp(`${activityPath}$`));
  await expect(rows.nth(1)).toContainText(format("en", a.actions["api_key.revoked"], { name: "R3 K10" }));
  await page.context().close();
});

test("the eleventh key is refused with the reason, and at ten the form gives way to it", async ({ browser }) => {
  // Nine operator commands, a few seconds each.
  test.setTimeout(120_000);
  const t = pageMessages("en").apiKeys;
  const holder = await newHolder();
  const page = await signedInPage(browser, holder, "en", keysPath);
  await createInPage(page, "en", "From the page");
  for (let n = 1; n <= 8; n += 1) await cliKey(holder.email, `CLI ${n}`);

  await page.reload();
  await expect(page.getByText(format("en", t.usage, { used: 9, limit: 10 }))).toBeVisible();
  await page.getByLabel(t.create.name, { exact: true }).fill("One too many");
  // The tenth arrives elsewhere while the form is open: the service refuses, the page says why.
  await cliKey(holder.email, "CLI 9");
  await page.getByRole("button", { name: t.create.submit }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    format("en", messages("en").problems.limit_reached.reasons.too_many_keys, { limit: 10 }),
  );
  await expect(page.getByText(format("en", t.create.limit, { limit: 10 }))).toBeVisible();
  await expect(page.getByText(format("en", t.usage, { used: 10, limit: 10 }))).toBeVisible();

  await page.reload();
  await expect(page.getByText(format("en", t.create.limit, { limit: 10 }))).toBeVisible();
  await expect(page.getByRole("button", { name: t.create.submit })).toHaveCount(0);
  await expect(page.getByLabel(t.create.name, { exact: true })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /One too many/ })).toHaveCount(0);
  await page.context().close();
});

test("the members page shows an owner the agency, and an agent gets the not-found page", async ({ browser }) => {
  const agency = `Agentia X ${unique()}`;
  const owner = await newHolder({ agency, role: "owner" });
  const agent = await newHolder({ agency, role: "agent" });
  const t = pageMessages("en").members;
  const shell = pageMessages("en").shell;

  const page = await signedInPage(browser, owner);
  await expect(page.getByRole("link", { name: shell.members })).toBeVisible();
  await page.goto(membersPath);
  await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();
  await expect(page.getByText(format("en", t.intro, { agency }))).toBeVisible();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(owner.email);
  await expect(rows.nth(1)).toContainText(t.you);
  await expect(rows.nth(1)).toContainText(shell.roles.owner);
  await expect(rows.nth(2)).toContainText(agent.email);
  await expect(rows.nth(2)).toContainText(shell.roles.agent);
  await page.context().close();

  const agentPage = await signedInPage(browser, agent);
  await expect(agentPage.getByRole("link", { name: shell.members })).toHaveCount(0);
  // Exactly what a missing page answers: 404 and the site's not-found page.
  expect((await agentPage.goto(membersPath))?.status()).toBe(404);
  await expect(agentPage.getByRole("heading", { level: 1, name: pageMessages("en").notFound.title })).toBeVisible();
  // The header names the agent's own agency; the page itself tells nothing of it.
  await expect(agentPage.getByRole("main").getByText(agency)).toHaveCount(0);
  await expect(agentPage.getByRole("main").getByRole("table")).toHaveCount(0);
  await agentPage.context().close();
});

test("the language chosen while signed in is remembered on the account, in a new browser too", async ({ browser }) => {
  const holder = await newHolder({ locale: "en" });
  const page = await signedInPage(browser, holder, "en", keysPath);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByRole("button", { name: "Română" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ro");
  await expect(page.getByRole("heading", { level: 1, name: pageMessages("ro").apiKeys.title })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(keysPath);
  await page.context().close();

  // A new browser with an English Accept-Language and no cookie: after signing in, the account's Romanian.
  const again = await signedInPage(browser, holder, "en");
  await expect(again.locator("html")).toHaveAttribute("lang", "ro");
  await expect(again.getByRole("heading", { level: 1, name: pageMessages("ro").account.title })).toBeVisible();
  await again.getByRole("button", { name: "English" }).click();
  await expect(again.locator("html")).toHaveAttribute("lang", "en");
  await expect(again.getByRole("heading", { level: 1, name: pageMessages("en").account.title })).toBeVisible();
  await again.context().close();
});

for (const locale of ["ro", "en"] as const) {
  test(`keys, activity and members pages (${locale}): accessible, no horizontal scroll at 360 px`, async ({ browser }, testInfo) => {
    // Three pages, each scanned at two widths: more than the default 30 s on a busy 2-core machine.
    test.setTimeout(90_000);
    const texts = pageMessages(locale);
    const holder = await newHolder({ locale, agency: `Agentia X ${unique()}`, role: "owner" });
    const page = await signedInPage(browser, holder, locale, keysPath);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.getByText(texts.apiKeys.list.empty)).toBeVisible();
    await checkPage(page, testInfo, `keys-empty-${locale}`);

    await cliKey(holder.email, "Sincronizare site cu un nume destul de lung pentru un tabel îngust");
    await page.reload();
    await createInPage(page, locale, "Import CRM", ["listings:write", "media:write"]);
    await page.getByRole("button", { name: format(locale, texts.apiKeys.revoke.buttonLabel, { name: "Import CRM" }) }).click();
    await expect(page.getByRole("button", { name: format(locale, texts.apiKeys.revoke.confirm, { name: "Import CRM" }) })).toBeFocused();
    await checkPage(page, testInfo, `keys-${locale}`);

    await page.goto(activityPath);
    await expect(page.getByRole("heading", { level: 1, name: texts.activity.title })).toBeVisible();
    await expect(page.getByText(format(locale, texts.activity.actions["api_key.created"], { name: "Import CRM" }))).toBeVisible();
    await checkPage(page, testInfo, `activity-${locale}`);

    await page.goto(membersPath);
    await expect(page.getByRole("heading", { level: 1, name: texts.members.title })).toBeVisible();
    await checkPage(page, testInfo, `members-${locale}`);
    await page.context().close();
  });
}
