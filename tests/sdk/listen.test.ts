import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { listen } from "@/sdk/src/listen";
import { clientOfNewAccount, listingBody } from "./support";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: every delivery it gets, answered 204. */
async function receiver() {
  const received: Received[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
      waiting.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  /** Resolves once `count` deliveries have arrived. */
  const deliveries = async (count: number) => {
    while (received.length < count) await new Promise<void>((wake) => waiting.push(wake));
    return received.slice(0, count);
  };
  return { url, received, deliveries, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** `listen` running until `stop`; its lines, and a promise of the line that says it follows the stream. */
function started(options: Omit<Parameters<typeof listen>[0], "print" | "signal">) {
  const lines: string[] = [];
  const stopper = new AbortController();
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const running = listen({
    ...options,
    wait: 5,
    signal: stopper.signal,
    print: (line) => {
      lines.push(line);
      if (line === "Ready") ready();
    },
  });
  return {
    lines,
    isReady,
    stop: async () => {
      stopper.abort();
      await running;
    },
  };
}

const stateDirectory = mkdtempSync(path.join(tmpdir(), "listen-"));
const local = await receiver();
afterAll(() => local.close());

describe("listen --forward-to", () => {
  it("forwards triggered events signed as webhooks, keeps its secret and cursor across restarts, filters by type", async () => {
    const { client } = await clientOfNewAccount();
    const { data: listing } = await client.listings.create(listingBody("listen-1"));
    const stateFile = path.join(stateDirectory, "state.json");

    // The first start begins at the end of the stream: the listing's earlier events are not forwarded.
    const first = started({ client: client.raw, forwardTo: local.url, stateFile });
    await first.isReady;
    const secret = /Webhook signing secret: (whsec_\S+)/.exec(first.lines.join("\n"))![1];
    const { data: sold } = await client.events.trigger({ type: "listing.sold", code: listing.code });
    const [delivery] = await local.deliveries(1);
    await first.stop();

    const verified = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as { id: string; type: string };
    expect(verified).toMatchObject({ id: sold.id, type: "listing.sold" });
    expect(delivery.headers["webhook-id"]).toBe(sold.id);
    expect(first.lines.filter((line) => line.includes(sold.id))).toEqual([expect.stringMatching(/listing\.sold .*→ 204$/)]);
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toMatchObject({ secret, after: sold.id });

    // Stopped: an event fired meanwhile is forwarded after the restart, the one before is not again.
    const { data: whileStopped } = await client.events.trigger({ type: "listing.published", code: listing.code });
    const second = started({ client: client.raw, forwardTo: local.url, stateFile, events: ["listing.published", "listing.paused"] });
    await second.isReady;
    expect(second.lines).toContain(`Webhook signing secret: ${secret}`);
    const { data: soldAgain } = await client.events.trigger({ type: "listing.sold", code: listing.code });
    const { data: paused } = await client.events.trigger({ type: "listing.paused", code: listing.code });
    const deliveries = await local.deliveries(3);
    await second.stop();

    // No event repeated or skipped; with `--events` the sold one is passed over.
    expect(deliveries.map((received) => received.headers["webhook-id"])).toEqual([sold.id, whileStopped.id, paused.id]);
    expect(second.lines.some((line) => line.includes(soldAgain.id))).toBe(false);
    expect(local.received).toHaveLength(3);
    expect(JSON.parse(readFileSync(stateFile, "utf8")).after).toBe(paused.id);
  });
});
