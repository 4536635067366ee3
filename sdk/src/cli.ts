#!/usr/bin/env node
import { parseArgs } from "node:util";
import { createClient } from "./client.js";
import { listen } from "./listen.js";

const usage = `Usage: listings listen --forward-to <url> [--events <type,type>] [--api-key <key>] [--base-url <url>] [--state <file>]

  --forward-to  the local receiver each event is posted to, signed as a webhook
  --events      event types to forward (comma separated); default all
  --api-key     a key with listings:read (default: $LISTINGS_API_KEY)
  --base-url    the API's address ending in /api/v1 (default: $LISTINGS_BASE_URL or http://localhost:3000/api/v1)
  --state       where the signing secret and the cursor are kept (default: .listings-listen-<key id>.json)`;

/** The command line of the typed client: `listen` forwards the account's events to a local URL. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "forward-to": { type: "string" },
      events: { type: "string" },
      "api-key": { type: "string" },
      "base-url": { type: "string" },
      state: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const apiKey = values["api-key"] ?? process.env.LISTINGS_API_KEY;
  if (values.help || positionals[0] !== "listen" || !values["forward-to"] || !apiKey) {
    process.stderr.write(`${usage}\n`);
    return values.help ? 0 : 2;
  }
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  await listen({
    client: createClient({ baseUrl: values["base-url"] ?? process.env.LISTINGS_BASE_URL ?? "http://localhost:3000/api/v1", apiKey }).raw,
    forwardTo: values["forward-to"],
    // One file per key: two keys (two accounts) never share a cursor.
    stateFile: values.state ?? `.listings-listen-${apiKey.split("|")[0]}.json`,
    events: values.events
      ?.split(",")
      .map((type) => type.trim())
      .filter(Boolean),
    signal: stop.signal,
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
