/**
 * The webhook benchmark's receivers (`bench/webhooks.ts`): `RECEIVERS` (3) plain `node:http` servers on
 * 127.0.0.1 in a process of their own, so that neither the sender nor the event producer shares their
 * event loop. Each reads the whole body, checks that the request is signed (the headers are there,
 * no HMAC: the receivers must not be the bottleneck), notes the `webhook-id` and the moment the
 * body ended, and answers 204. Driven over IPC: it sends `{ type: "ready", urls }` once listening;
 * `{ type: "count" }` answers with the receipts so far, `{ type: "take" }` hands them over and starts
 * afresh.
 */
import { createServer, type Server } from "node:http";
import { performance } from "node:perf_hooks";

export interface Receipt {
  /** Which receiver (0, 1, 2): one per webhook. */
  receiver: number;
  /** The `webhook-id` header: the event id. */
  id: string;
  /** Unix milliseconds (fractional) when the body had arrived. */
  at: number;
  /** A request without the Standard Webhooks headers or not a POST. */
  unsigned: boolean;
}

export type ReceiverMessage =
  { type: "ready"; urls: string[] } | { type: "count"; received: number } | { type: "taken"; receipts: Receipt[] };

const now = () => performance.timeOrigin + performance.now();
const count = Number(process.env.RECEIVERS ?? 3);
let receipts: Receipt[] = [];

function receiver(index: number): Server {
  return createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      const id = req.headers["webhook-id"];
      const unsigned =
        req.method !== "POST" || typeof id !== "string" || !req.headers["webhook-timestamp"] || !req.headers["webhook-signature"];
      receipts.push({ receiver: index, id: String(id), at: now(), unsigned });
      res.writeHead(204).end();
    });
  });
}

const send = (message: ReceiverMessage) => process.send!(message);

const servers = Array.from({ length: count }, (_, i) => receiver(i));
const urls = await Promise.all(
  servers.map(
    (server) =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => {
          const address = server.address();
          resolve(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`);
        }),
      ),
  ),
);

process.on("message", (message: { type: "count" | "take" }) => {
  if (message.type === "count") send({ type: "count", received: receipts.length });
  if (message.type === "take") {
    send({ type: "taken", receipts });
    receipts = [];
  }
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready", urls });
