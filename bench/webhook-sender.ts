/**
 * The sending side of the webhook benchmark (`bench/webhooks.ts`), in a process of its own, started
 * the same way for both sides so that they compare like with like (one Node process, `tsx`, nothing
 * else on its event loop):
 *
 * - `lane`: the product. Opens `DATABASE_URL` as the app does (postgres.js, pool of 10) and starts the
 *   embedded runner's delivery lane (a `DeliveryLane` with its defaults) on `{ type: "start" }`: it
 *   LISTENs, claims, attempts through `safePost` and records outcomes. `{ type: "stop" }` stops it
 *   (the process stays, warm, for the next start).
 * - `ceiling`: the ceiling lane (`bench/webhook-ceiling.ts`): the least database work that makes each
 *   delivery as durable as the product's (claimed and committed before its request, its outcome
 *   committed after), in plain postgres.js, with the bare sender's POST. Started and stopped as the lane.
 * - `bare`: the baseline. Given the requests (`{ type: "send", … }`), it signs each with the product's
 *   `signWebhook` and POSTs it with plain `node:http`, the same headers and at most as many in flight
 *   as the lane (its `defaultMaxInFlight` in all, `maxInFlightPerWebhook` per receiver), webhooks
 *   taking turns. `keepAlive: false` makes a new connection per request, as `safePost` does
 *   (`agent: false`); `true` reuses connections (a keep-alive agent), for information.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { openDatabase } from "@/db/client";
import { DeliveryLane, defaultMaxInFlight, maxInFlightPerWebhook } from "@/lib/domain/webhooks/delivery";
import { CeilingLane } from "./webhook-ceiling";
import { signedPost, type BareRequest } from "./webhook-post";

export type { BareRequest } from "./webhook-post";

export type SenderCommand = { type: "start" } | { type: "stop" } | { type: "send"; requests: BareRequest[]; keepAlive: boolean };
export type SenderMessage =
  | { type: "ready" }
  | { type: "started"; at: number }
  | { type: "stopped" }
  | {
      type: "sent";
      startedAt: number;
      starts: [receiver: number, id: string, at: number][];
      statuses: Record<string, number>;
      errors: number;
    };

const now = () => performance.timeOrigin + performance.now();
const send = (message: SenderMessage) => process.send!(message);
const mode = process.argv[2];

/** What the bench starts and stops: the product's lane, or the ceiling lane. */
interface Lane {
  start(): Promise<void>;
  stop(): Promise<void>;
}

if (mode === "lane" || mode === "ceiling") {
  const url = process.env.DATABASE_URL!;
  const database = mode === "lane" ? await openDatabase({ url }) : undefined;
  const ceilingClient = mode === "ceiling" ? CeilingLane.client(url) : undefined;
  const newLane = (): Lane => (database ? new DeliveryLane({ database }) : new CeilingLane(ceilingClient!));
  // A lane per start (a stopped lane stays stopped); a start while one runs changes nothing, as the runner's.
  let lane: Lane | undefined;
  const stopLane = async () => {
    const stopping = lane;
    lane = undefined;
    await stopping?.stop();
  };
  process.on("message", (message: SenderCommand) => {
    if (message.type === "start") {
      const at = now();
      lane ??= newLane();
      void lane.start().then(() => send({ type: "started", at }));
    }
    if (message.type === "stop") void stopLane().then(() => send({ type: "stopped" }));
  });
  process.on(
    "disconnect",
    () =>
      void stopLane()
        .then(() => (database ? database.close() : ceilingClient!.end({ timeout: 5 })))
        .finally(() => process.exit(0)),
  );
  send({ type: "ready" });
} else if (mode === "bare") {
  process.on("message", (message: SenderCommand) => {
    if (message.type === "send") void sendAll(message.requests, message.keepAlive).then(send);
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready" });
} else throw new Error(`webhook-sender: mode lane, ceiling or bare, not ${mode}`);

async function sendAll(requests: BareRequest[], keepAlive: boolean): Promise<SenderMessage> {
  const agent = keepAlive ? new http.Agent({ keepAlive: true, maxSockets: maxInFlightPerWebhook }) : false;
  const queues = new Map<number, BareRequest[]>();
  for (const request of requests) queues.set(request.receiver, [...(queues.get(request.receiver) ?? []), request]);
  const busy = new Map<number, number>();
  const statuses: Record<string, number> = {};
  const starts: [number, string, number][] = [];
  let errors = 0;
  let inFlight = 0;
  let left = requests.length;
  const startedAt = now();
  await new Promise<void>((finished) => {
    if (left === 0) return finished();
    const pump = () => {
      let progressed = true;
      while (progressed && inFlight < defaultMaxInFlight) {
        progressed = false;
        for (const [receiver, queue] of queues) {
          if (inFlight >= defaultMaxInFlight) break;
          if (queue.length === 0 || (busy.get(receiver) ?? 0) >= maxInFlightPerWebhook) continue;
          const request = queue.shift()!;
          busy.set(receiver, (busy.get(receiver) ?? 0) + 1);
          inFlight++;
          progressed = true;
          starts.push([receiver, request.id, now()]);
          void signedPost(request, agent).then(({ status }) => {
            if (status === null) errors++;
            else statuses[status] = (statuses[status] ?? 0) + 1;
            busy.set(receiver, busy.get(receiver)! - 1);
            inFlight--;
            if (--left === 0) finished();
            else pump();
          });
        }
      }
    };
    pump();
  });
  if (agent) agent.destroy();
  return { type: "sent", startedAt, starts, statuses, errors };
}
