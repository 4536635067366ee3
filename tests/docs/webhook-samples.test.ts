import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { eventTypes, eventWaiters, parseEventId } from "@/lib/domain/events";
import { createWebhook } from "@/lib/domain/webhooks/create-webhook";
import { newWebhookSecret, signWebhook } from "@/lib/domain/webhooks/signature";
import { locales } from "@/lib/base/i18n";
import type { WebhookEvent } from "@/sdk/src/index";
import { ctxOf } from "../oauth/support";
import { accountWithKey } from "../support/fixtures";
import { recordEvents } from "../events/support";
import { createListing } from "../support/listings";
import { deliveriesOf, receiver } from "../webhooks/support";
import { inProcessFetch } from "../support/in-process-fetch";
import { runTypeScript, testedSamples, workFolder } from "./samples";

// The webhook guide's samples (content/docs/<language>/webhooks.mdx, the blocks marked `test`) verify
// deliveries signed by the platform's own signer (lib/domain/webhooks/signature.ts), and refuse the
// forged, altered and stale ones; the catch-up sample reads the real GET /events.

const run = promisify(execFile);

const event = {
  id: "evt_0000000000docs1",
  type: eventTypes.published,
  created_at: "2026-11-26T10:00:00.000Z",
  data: { code: "K7M2XQ4P", external_ref: "crm-10442", status: "active", url: "http://localhost:3000/listings/K7M2XQ4P" },
};

function signed(secret: string, options: { body?: string; secondsAgo?: number } = {}) {
  const body = options.body ?? JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000) - (options.secondsAgo ?? 0);
  const headers = {
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook({ secret, id: event.id, timestamp, body }),
  };
  return { body, headers };
}

/** The genuine delivery and four that must be refused: another secret, another body, 6 minutes old, no signature. */
function deliveries(secret: string) {
  const genuine = signed(secret);
  return {
    genuine,
    refused: [
      signed(newWebhookSecret()),
      { ...genuine, body: genuine.body.replace("K7M2XQ4P", "K7M2XQ4Q") },
      signed(secret, { secondsAgo: 6 * 60 }),
      { body: genuine.body, headers: { ...genuine.headers, "webhook-signature": "v1,AAAA" } },
    ],
  };
}

describe.each(locales)("the webhook guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "webhooks");
  const sample = (title: string) => {
    const found = samples.get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} webhook guide`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(
      [
        "catch-up.ts",
        "follow-events.ts",
        "handle-once.ts",
        "trigger-event.ts",
        "verify-standardwebhooks.ts",
        "verify_webhook.py",
        "webhook-handler.ts",
      ].sort(),
    );
  });

  it("webhook-handler.ts answers 204 to a genuine delivery, handing over the event, and 400 to the others", async () => {
    const secret = newWebhookSecret();
    const { module } = await runTypeScript<{
      handleWebhook(request: Request, handle: (event: WebhookEvent) => Promise<void>): Promise<Response>;
    }>(sample("webhook-handler.ts"), { folder: workFolder(), env: { WEBHOOK_SECRET: secret } });
    const handled: WebhookEvent[] = [];
    const post = ({ body, headers }: { body: string; headers: Record<string, string> }) =>
      module.handleWebhook(
        new Request("http://localhost:4000/webhooks", { method: "POST", headers, body }),
        async (one) => void handled.push(one),
      );
    const { genuine, refused } = deliveries(secret);
    expect((await post(genuine)).status).toBe(204);
    for (const delivery of refused) expect((await post(delivery)).status).toBe(400);
    expect(handled).toEqual([event]);
  });

  it("verify-standardwebhooks.ts answers the genuine event and throws for the others", async () => {
    const secret = newWebhookSecret();
    const { module } = await runTypeScript<{ verify(rawBody: string, headers: Record<string, string>): unknown }>(
      sample("verify-standardwebhooks.ts"),
      { folder: workFolder(), env: { WEBHOOK_SECRET: secret } },
    );
    const { genuine, refused } = deliveries(secret);
    expect(module.verify(genuine.body, genuine.headers)).toEqual(event);
    for (const delivery of refused) expect(() => module.verify(delivery.body, delivery.headers)).toThrow();
  });

  it("verify_webhook.py (Python's standard library) answers the genuine event and raises ValueError for the others", async () => {
    const folder = workFolder();
    writeFileSync(path.join(folder, "verify_webhook.py"), sample("verify_webhook.py").code);
    const secret = newWebhookSecret();
    const { genuine, refused } = deliveries(secret);
    const harness = [
      "import json, sys",
      "from verify_webhook import verify_webhook",
      "cases = json.load(sys.stdin)",
      "for case in cases:",
      "    try:",
      "        print(json.dumps(verify_webhook(case['secret'], case['headers'], case['body'].encode())))",
      "    except ValueError:",
      "        print('refused')",
    ].join("\n");
    const cases = [genuine, ...refused].map((delivery) => ({ secret, ...delivery }));
    const child = run("python3", ["-c", harness], { cwd: folder });
    child.child.stdin!.end(JSON.stringify(cases));
    const lines = (await child).stdout.trim().split("\n");
    expect(JSON.parse(lines[0])).toEqual(event);
    expect(lines.slice(1)).toEqual(["refused", "refused", "refused", "refused"]);
  });

  it("handle-once.ts works on an event once, however often it arrives", async () => {
    const { module } = await runTypeScript<{
      handleOnce(event: WebhookEvent, work: (event: WebhookEvent) => Promise<void>): Promise<"done" | "duplicate">;
    }>(sample("handle-once.ts"), { folder: workFolder(), env: {} });
    const worked: string[] = [];
    const work = async (one: WebhookEvent) => void worked.push(one.id);
    const first = event as unknown as WebhookEvent;
    const second = { ...event, id: "evt_0000000000docs2" } as unknown as WebhookEvent;
    expect(await module.handleOnce(first, work)).toBe("done");
    expect(await module.handleOnce(first, work)).toBe("duplicate");
    expect(await module.handleOnce(second, work)).toBe("done");
    expect(worked).toEqual([first.id, second.id]);
  });

  it("trigger-event.ts fires listing.sold for the listing given: in GET /events and queued for the subscribed webhook", async () => {
    const { key, account } = await accountWithKey();
    const listing = await createListing(key);
    const webhook = await createWebhook({ ctx: await ctxOf(account.id), input: { url: receiver, events: [eventTypes.sold] } });
    const fired = await runTypeScript(sample("trigger-event.ts"), {
      folder: workFolder(),
      env: { LISTINGS_API_KEY: key, LISTING_CODE: listing.code },
    });
    const [event] = (
      await inProcessFetch(new Request("http://localhost:3000/api/v1/events", { headers: { authorization: `Bearer ${key}` } })).then(
        (response) => response.json() as Promise<{ data: { id: string; type: string; data: { code: string } }[] }>,
      )
    ).data;
    expect(event).toMatchObject({ type: "listing.sold", data: { code: listing.code } });
    expect(fired.printed).toEqual([`listing.sold ${event.id}`]);
    expect(await deliveriesOf([webhook.id])).toEqual([expect.objectContaining({ eventSeq: parseEventId(event.id) })]);
  });

  it("catch-up.ts prints every event of GET /events after the one given, oldest first", async () => {
    const { key } = await accountWithKey();
    const call = (method: string, pathname: string, body?: unknown) =>
      inProcessFetch(
        new Request(`http://localhost:3000/api/v1${pathname}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ).then((response) => response.json() as Promise<any>);
    const { exampleApartment } = await import("@/lib/domain/listings/examples");
    const { data: listing } = await call("POST", "/listings", { ...exampleApartment, external_ref: "docs-catch-up" });
    await call("POST", `/sandbox/listings/${listing.code}/moderation`, { decision: "approve" });
    await call("POST", `/listings/${listing.code}/pause`);
    const events: { id: string; type: string }[] = (await call("GET", "/events")).data;
    expect(events.map((one) => one.type)).toEqual(["listing.published", "listing.paused"]);

    const all = await runTypeScript(sample("catch-up.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key, LAST_EVENT_ID: "" } });
    expect(all.printed).toEqual(events.map((one) => `${one.type} ${one.id}`));
    const after = await runTypeScript(sample("catch-up.ts"), {
      folder: workFolder(),
      env: { LISTINGS_API_KEY: key, LAST_EVENT_ID: events[0].id },
    });
    expect(after.printed).toEqual([`${events[1].type} ${events[1].id}`]);
  });

  it("follow-events.ts handles each event as it is committed, waiting at the end of the stream, until told to stop", async () => {
    const { key, keyId, account } = await accountWithKey();
    const [first] = await recordEvents(account.id, 1);
    const { module } = await runTypeScript<{
      followEvents(after: string | undefined, handle: (event: { id: string }) => Promise<boolean>): Promise<string | undefined>;
    }>(sample("follow-events.ts"), { folder: workFolder(), env: { LISTINGS_API_KEY: key } });
    const handled: string[] = [];
    // The sample's requests are made after its import: they too go to the route handlers here.
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => inProcessFetch(new Request(input, init)));
    try {
      const following = module.followEvents(undefined, async (event) => {
        handled.push(event.id);
        return handled.length < 2;
      });
      // The first event is there at once; the second is committed while the sample waits for it.
      await expect.poll(() => eventWaiters().waiting(`api:${keyId}`), { timeout: 10_000, interval: 10 }).toBe(1);
      const [second] = await recordEvents(account.id, 1);
      expect(await following).toBe(second.id);
      expect(handled).toEqual([first.id, second.id]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
