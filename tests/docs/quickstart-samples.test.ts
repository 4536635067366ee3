import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { attemptDelivery } from "@/lib/domain/webhooks/delivery";
import { newWebhookSecret } from "@/lib/domain/webhooks/signature";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { restoreEnv, setEnv } from "../support/env";

// The quickstart's samples (content/docs/<language>/quickstart.mdx, the blocks marked `test`) run as an
// integrator runs them, in order, against the route handlers and the run's database: curl and jq in
// bash, the TypeScript files as modules with the client. A sample that drifts from the API fails here.

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
  restoreEnv();
});

async function get(key: string, pathname: string) {
  const response = await inProcessFetch(
    new Request(`http://localhost:3000/api/v1${pathname}`, { headers: { authorization: `Bearer ${key}`, accept: "application/json" } }),
  );
  return (await response.json()) as any;
}

describe.each(locales)("the quickstart's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "quickstart");
  const sample = (title: string) => {
    const found = samples.get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} quickstart`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(
      [
        "get-photo.sh",
        "add-photo.sh",
        "add-photo.ts",
        "create-listing.sh",
        "create-listing.ts",
        "publish.sh",
        "publish.ts",
        "webhook-receiver.ts",
      ].sort(),
    );
  });

  it("creates, illustrates and publishes a listing with curl and with the client; the receiver gets the event", async () => {
    const { key } = await accountWithKey();
    const folder = workFolder();
    const shell = (title: string, env: Record<string, string> = {}) =>
      runShell(sample(title), { curlHome: bridge.curlHome, cwd: folder, env: { LISTINGS_API_KEY: key, ...env } });

    // 5. Create a listing, with curl and with the client.
    const created = JSON.parse(await shell("create-listing.sh"));
    expect(created.data).toMatchObject({ status: "pending", external_ref: "quickstart-1" });
    const curlCode: string = created.data.code;
    expect(curlCode).toHaveLength(8);

    const byClient = await runTypeScript(sample("create-listing.ts"), { folder, env: { LISTINGS_API_KEY: key } });
    // It prints the code alone, which `export LISTING_CODE=$(npx tsx create-listing.ts)` keeps.
    expect(byClient.printed).toHaveLength(1);
    const clientCode = byClient.printed[0];
    expect(clientCode).toMatch(/^[A-Z0-9]{8}$/);
    expect((await get(key, `/account/listings/${clientCode}`)).data).toMatchObject({ external_ref: "quickstart-2", status: "pending" });

    // 6. Add a photo: the sandbox's own, downloaded by the guide's command.
    await shell("get-photo.sh");
    expect((await sharp(await readFile(path.join(folder, "photo.jpg"))).metadata()).format).toBe("jpeg");
    const photoByCurl = (await shell("add-photo.sh", { LISTING_CODE: curlCode })).trim();
    expect(JSON.parse(photoByCurl.slice(photoByCurl.lastIndexOf("{")))).toEqual({ queued: 1 });
    const photoByClient = await runTypeScript(sample("add-photo.ts"), {
      folder,
      env: { LISTINGS_API_KEY: key, LISTING_CODE: clientCode, PHOTO: path.join(folder, "photo.jpg") },
    });
    expect(photoByClient.printed).toEqual(["1 photo queued for processing"]);
    for (const code of [curlCode, clientCode]) expect((await get(key, `/account/listings/${code}`)).data.media.processing).toBe(true);

    // 7. Publish it.
    const published = JSON.parse(await shell("publish.sh", { LISTING_CODE: curlCode }));
    expect(published.data).toMatchObject({ code: curlCode, status: "active" });
    const publishedByClient = await runTypeScript(sample("publish.ts"), {
      folder,
      env: { LISTINGS_API_KEY: key, LISTING_CODE: clientCode },
    });
    expect(publishedByClient.printed).toEqual([`active ${(await get(key, `/account/listings/${clientCode}`)).data.url}`]);

    const events = (await get(key, "/events")).data.filter((event: any) => event.type === "listing.published");
    expect(events.map((event: any) => event.data.code).sort()).toEqual([curlCode, clientCode].sort());

    // 4. The receiver, sent the real listing.published event by the platform's own sender, twice.
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
    const secret = newWebhookSecret();
    const { module } = await runTypeScript<{ server: Server }>(sample("webhook-receiver.ts"), {
      folder,
      env: { WEBHOOK_SECRET: secret, PORT: "0" },
    });
    const { server } = module;
    try {
      if (!server.listening) await new Promise((listening) => server.once("listening", listening));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
      const printed: string[] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
      try {
        const event = { id: events[0].id, body: JSON.stringify(events[0]) };
        expect(await attemptDelivery({ url, secret, event, now: new Date() })).toMatchObject({ ok: true, status: 204 });
        expect(await attemptDelivery({ url, secret, event, now: new Date(Date.now() + 30_000) })).toMatchObject({ ok: true, status: 204 });
        expect(await attemptDelivery({ url, secret: newWebhookSecret(), event, now: new Date() })).toMatchObject({
          ok: false,
          status: 400,
        });
      } finally {
        log.mockRestore();
      }
      expect(printed).toEqual([`received listing.published ${events[0].id} ${JSON.stringify(events[0].data)}`]);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
