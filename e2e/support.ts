import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  type APIRequestContext,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Page,
  type Response,
  type TestInfo,
} from "@playwright/test";
import { readLock } from "../db/lock";
import { commandRequest } from "@/lib/adapters/cli/main";
import { sendCommand } from "@/lib/adapters/cli/operator-channel";

/**
 * Runs an operator command, written as on the command line, against the e2e server's database. The
 * server holds the PGlite folder, so the command goes through the server's operator channel, as the
 * CLI's would, but from this process: a CLI process per call cost seconds of start-up each.
 */
export async function cli<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
  const holder = readLock(path.resolve(process.env.E2E_DATA_DIR ?? `.data/e2e-${process.env.E2E_PORT}`));
  if (!holder?.operatorPort || !holder.operatorToken) throw new Error("The e2e server serves no operator channel.");
  const reply = await sendCommand({ port: holder.operatorPort, token: holder.operatorToken }, commandRequest(argv));
  if (reply.exit_code !== 0) throw new Error(`${argv[0]} failed: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
}

/** A key of the holder with that e-mail, made by the operator's CLI for 30 days. */
export const holderKey = async (email: string, permissions = "listings:read,listings:write") =>
  (await cli<{ key: string }>("key:create", "--email", email, "--name", "CRM", "--permissions", permissions, "--days", "30")).key;

/** A one-room flat for rent that passes validation; `title` and anything else may be replaced. */
export const sampleListing = (changes: Record<string, unknown> = {}) => ({
  type: "apartment",
  transaction: "rent",
  title: "Garsonieră luminoasă lângă parcul central",
  description: "Garsonieră luminoasă, renovată complet, mobilat, cu balcon spre parc și la două minute de stația de autobuz.",
  city: "Cluj-Napoca",
  street: "Strada Memorandumului",
  latitude: 46.7693,
  longitude: 23.5895,
  rooms: 1,
  floor: "2",
  usable_area_sqm: 36,
  price: 650,
  price_currency: "EUR",
  ...changes,
});

export interface Holder {
  email: string;
  password: string;
  id: string;
}

/** A new confirmed account made by the operator's CLI (each test its own, so tests never share keys or logs). */
export async function newHolder(
  options: { locale?: "ro" | "en"; agency?: string; role?: "owner" | "admin" | "agent"; moderator?: boolean } = {},
): Promise<Holder> {
  const email = `holder-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = "a holder's password";
  const extra = [
    ...(options.agency ? ["--agency", options.agency, "--role", options.role ?? "owner"] : []),
    ...(options.moderator ? ["--moderator"] : []),
  ];
  const created = await cli<{ id: string }>(
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

/**
 * A key of a new account of the test's own. Tests run in parallel, so none uses the seeded demo
 * account: its 10 usable keys would run out (`too_many_keys`) and its listings would be everyone's.
 */
export const ownKey = async (permissions = "listings:read,listings:write,media:write") => holderKey((await newHolder()).email, permissions);

/** A browser page signed in as `holder` (signInContext) in a browser of `locale`, opened at `path` (the account page, where the form leads). */
export async function signedInPage(browser: Browser, holder: Holder, locale: "ro" | "en" = "en", path = "/account"): Promise<Page> {
  const context = await browser.newContext({ locale: locale === "ro" ? "ro-RO" : "en-US" });
  const page = await context.newPage();
  await signInContext(context, holder);
  await page.goto(path);
  return page;
}

/**
 * The browser's requests come from an address of its own, as people's do (the e2e server trusts one
 * proxy hop more, TRUSTED_PROXY_HOPS=2, so this X-Forwarded-For entry is the client's address). The
 * per-address limits (sign-ins: 50 in 15 minutes; reports: 10 an hour) would otherwise count every
 * test's sign-ins and reports together, from 127.0.0.1, whichever worker runs them.
 */
export async function fromOwnAddress(context: BrowserContext): Promise<void> {
  await context.setExtraHTTPHeaders(ownAddress());
}

/** The X-Forwarded-For of a client address of its own (10.x.y.z), for a browser or a bare request. */
export function ownAddress(): { "x-forwarded-for": string } {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return { "x-forwarded-for": `10.${octet()}.${octet()}.${octet()}` };
}

/**
 * Signs the browser context in as `holder` through the sign-in form, posted by the context's own
 * request client (which shares the context's cookies) as a browser without JavaScript posts it: the
 * form's clicks are proven once in access.spec.ts, and rendering it for every signed-in test cost
 * two page loads each. The context's requests then come from the address that signed in.
 */
export async function signInContext(context: BrowserContext, holder: Holder): Promise<void> {
  const address = await signInWithoutBrowser(context.request, holder);
  await context.setExtraHTTPHeaders(address);
}

const entities: Record<string, string> = { "&quot;": '"', "&#x27;": "'", "&#39;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&" };
const unescapeHtml = (text: string) => text.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => entities[entity]);

/**
 * Submits a page's form as a browser without JavaScript would (the portal's forms work so): the
 * page is read, the form holding `field` is found, its hidden inputs (the server action's own among
 * them) are sent back with `fields`, as multipart. Answers the response, redirects not followed;
 * the request context keeps the cookies it sets.
 */
export async function postPageForm(
  request: APIRequestContext,
  path: string,
  field: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const html = await (await request.get(path, { headers })).text();
  const form = html.split("<form").find((part) => part.includes(`name="${field}"`));
  if (!form) throw new Error(`no form with ${field} on ${path}`);
  const hidden: Record<string, string> = {};
  for (const [input] of form.slice(0, form.indexOf("</form>")).matchAll(/<input [^>]*>/g)) {
    if (!/type="hidden"/.test(input)) continue;
    const name = input.match(/name="([^"]*)"/)?.[1];
    if (name) hidden[unescapeHtml(name)] = unescapeHtml(input.match(/value="([^"]*)"/)?.[1] ?? "");
  }
  return request.post(path, { headers, multipart: { ...hidden, ...fields }, maxRedirects: 0 });
}

/**
 * Signs `holder` in with the request context alone, through the sign-in form as a browser without
 * JavaScript posts it: for tests of what the server answers a signed-in visitor, without a browser.
 */
export async function signInWithoutBrowser(request: APIRequestContext, holder: Holder): Promise<Record<string, string>> {
  // An address of its own, as signIn's browsers have (the per-address sign-in limit).
  const headers = ownAddress();
  const answer = await postPageForm(
    request,
    "/login?next=%2Faccount",
    "password",
    { email: holder.email, password: holder.password },
    headers,
  );
  expect(answer.status(), await answer.text()).toBeLessThan(400);
  expect(answer.headers()["set-cookie"] ?? "", "the session cookie").toContain("session-token");
  return headers;
}

/**
 * Screenshots are for a person to look at, and no test asserts one: a local run keeps them, a CI run
 * (`CI` set) takes none, unless `E2E_SCREENSHOTS=1` asks for them (`0` leaves them out locally too).
 */
const screenshotsWanted = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS === "1" : !process.env.CI;

/** A full-page screenshot kept under test-results/ and attached to the HTML report, when screenshots are wanted. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * No serious or critical axe violation on the page as it is; a failure lists each rule, its help and its targets.
 * Every rule runs. axe runs inside the page (legacy mode: the portal has no frames to gather results
 * from, and the default opened a blank page per scan to merge them) and details violations only
 * (the passes' selectors were most of a scan's work): a third of the time, the same violations.
 */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/** Each serious or critical axe violation on the page as `<rule>: <help> (<targets>)`. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const scan = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  return scan.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join("; ")})`);
}

/**
 * Sets the viewport to 360 px wide (and leaves it there) and expects no horizontal scroll; a failure
 * names what sticks out, outside the scrolling tables (`.table-wrap`), to say where the scroll comes from.
 */
export async function expectNoHorizontalScroll(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 780 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const wide =
    overflow > 0
      ? await page.evaluate(() =>
          [...document.querySelectorAll("body *")]
            .filter(
              (element) => !element.closest(".table-wrap") && element.getBoundingClientRect().right > document.documentElement.clientWidth,
            )
            .map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""}`),
        )
      : [];
  expect(overflow, `horizontal scroll at 360 px on ${name}: ${wide.join(", ")}`).toBeLessThanOrEqual(0);
}

/** Collects CSP violations from both the DOM event and the console, from before the page's first script. */
export async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const consoleReports: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) consoleReports.push(message.text());
  });
  await page.addInitScript(() => {
    const reports: string[] = [];
    (window as unknown as { cspReports: string[] }).cspReports = reports;
    document.addEventListener("securitypolicyviolation", (event) =>
      reports.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return async () => [...consoleReports, ...(await page.evaluate(() => (window as unknown as { cspReports: string[] }).cspReports))];
}

/**
 * A page's security headers: a nonce-based script policy with nothing inline (styles inline only
 * where `inlineStyles`, the API reference's Scalar, allows them), no framing, no sniffing.
 */
export function expectPageHeaders(response: Response | APIResponse, { inlineStyles = false } = {}): void {
  const headers = response.headers();
  const policy = headers["content-security-policy"];
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  if (inlineStyles) expect(policy).toContain("style-src 'self' 'unsafe-inline';");
  expect(inlineStyles ? policy.replace(/style-src [^;]*/, "") : policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
}

/**
 * A screenshot at the current (desktop) size, no serious or critical axe violation, no horizontal
 * scroll at 360 px and a screenshot there (`<name>-desktop`, `<name>-360px`); then the viewport as it was.
 */
export async function checkPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const viewport = page.viewportSize();
  await screenshot(page, testInfo, `${name}-desktop`);
  await expectNoSeriousAxeViolations(page);
  await expectNoHorizontalScroll(page, name);
  await screenshot(page, testInfo, `${name}-360px`);
  if (viewport) await page.setViewportSize(viewport);
}

/**
 * Goes to an operation of the API reference from its sidebar entry, as a reader would, and waits for
 * its section. Scalar draws the sections below the first screen when the browser is idle, which two
 * workers and the server on two cores can put off for longer than an expectation waits (the section
 * was still missing after 15 s in one CI run); a click on the entry draws it at once. The entry's tag
 * group is opened first when Scalar shows it closed (it does, at times, for the first group too).
 */
export async function openReferenceOperation(page: Page, tag: string, summary: string): Promise<void> {
  const sidebar = page.locator("aside");
  const entry = sidebar.getByRole("button", { name: summary }).first();
  const closedGroup = sidebar.getByRole("button", { name: `${tag} Open Group` });
  await expect(entry.or(closedGroup).first()).toBeVisible();
  if (await closedGroup.isVisible()) await closedGroup.click();
  await entry.click();
  await expect(page.getByRole("heading", { name: summary, exact: true })).toBeVisible();
}
