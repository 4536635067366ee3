// A receiver for the platform's webhooks (Node.js 20+, `npm install standardwebhooks`):
//   WEBHOOK_SECRET=whsec_… PORT=3000 node webhook-receiver.mjs
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";

export function createReceiver({ secret, handleEvent }) {
  const webhook = new Webhook(secret); // the whsec_… secret shown when the webhook was created
  const seen = new Set(); // event ids already accepted; keep them in your database in production

  return createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      // Verify the raw body, exactly as received, before any JSON parsing: the signature covers
      // those bytes. verify() also refuses a webhook-timestamp more than 5 minutes from now.
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let event;
      try {
        event = webhook.verify(rawBody, req.headers);
      } catch {
        res.writeHead(400).end();
        return;
      }
      // Delivery is at least once: the same webhook-id can arrive again; answer 2xx and skip it.
      const id = req.headers["webhook-id"];
      const duplicate = seen.has(id);
      seen.add(id);
      // Answer 2xx at once (within 10 seconds, or the attempt counts as failed) and work afterwards.
      res.writeHead(204).end();
      if (!duplicate) setImmediate(() => handleEvent(event));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const receiver = createReceiver({
    secret: process.env.WEBHOOK_SECRET,
    handleEvent: (event) => console.log(event.type, event.id, event.data),
  });
  receiver.listen(Number(process.env.PORT ?? 3000));
}
