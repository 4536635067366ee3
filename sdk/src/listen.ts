import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import type { RawClient } from "./client.js";
import { unwrap } from "./errors.js";
import type { Event } from "./types.js";

export interface ListenOptions {
  /** A client made with a key that has `listings:read` (a sandbox key: the sandbox triggers fire events to forward). */
  client: RawClient;
  /** The local receiver, `http://localhost:4000/hook`: each event is posted there as a signed webhook. */
  forwardTo: string;
  /** The file keeping the signing secret and the last event handled, so that a restart goes on where it stopped. */
  stateFile: string;
  /** Event types to forward; the others are passed over (and not forwarded after a restart either). Default: all. */
  events?: readonly string[];
  /** Seconds each long poll of `GET /events` may wait (1–30). Default 30. */
  wait?: number;
  /** Ends the loop: the request in progress is abandoned, the state stays as the last event handled left it. */
  signal?: AbortSignal;
  /** Where the lines go (default: standard output). */
  print?: (line: string) => void;
}

interface ListenState {
  secret: string;
  /** Whether the first start has found the end of the stream (`after` null then: there was no event yet). */
  started: boolean;
  /** The id of the last event handled (forwarded or passed over). */
  after: string | null;
}

/**
 * `listen --forward-to`: follows `GET /events` with long polls and posts each event to a local URL
 * as the platform would deliver it (Standard Webhooks headers, signed with a `whsec_` secret of its
 * own, printed at start and kept in `stateFile`), printing one line per event with the receiver's
 * answer. The cursor is saved after each event, so a restart neither repeats nor skips one; the first
 * start begins at the end of the stream (the events of the last 35 days are not replayed). A receiver
 * that fails is reported on the event's line and not asked again: the sandbox triggers fire another.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const state = await loadState(options.stateFile);
  const signer = new Webhook(state.secret);
  const wanted = options.events?.length ? new Set(options.events) : null;
  print(`Forwarding events${wanted ? ` (${[...wanted].join(", ")})` : ""} to ${options.forwardTo}`);
  print(`Webhook signing secret: ${state.secret}`);
  const page = (query: { after?: string; wait?: number; limit: number }) =>
    unwrap(options.client.GET("/events", { params: { query }, signal: options.signal }));
  try {
    if (!state.started) {
      state.after = await endOfStream(page);
      state.started = true;
      await saveState(options.stateFile, state);
    }
    print("Ready");
    while (!options.signal?.aborted) {
      const { data } = await page({ after: state.after ?? undefined, wait: options.wait ?? 30, limit: 100 });
      for (const event of data) {
        if (options.signal?.aborted) return;
        if (!wanted || wanted.has(event.type)) print(await forward(event, options.forwardTo, signer));
        state.after = event.id;
        await saveState(options.stateFile, state);
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
}

/** The id of the newest event kept, read page by page (null when there is none yet). */
async function endOfStream(page: (query: { after?: string; limit: number }) => Promise<{ data: Event[]; meta: { next: string | null } }>) {
  let last: string | null = null;
  for (;;) {
    const { data, meta } = await page({ after: last ?? undefined, limit: 500 });
    if (data.length) last = data[data.length - 1].id;
    if (!meta.next) return last;
  }
}

/** One event posted as a webhook delivery: the body the platform sends, signed over `{id}.{timestamp}.{body}`. */
async function forward(event: Event, url: string, signer: Webhook): Promise<string> {
  const body = JSON.stringify(event);
  const sentAt = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": signer.sign(event.id, sentAt, body),
  };
  const line = `${sentAt.toISOString()}  ${event.type}  ${event.id}`;
  try {
    const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return `${line}  → ${response.status}`;
  } catch (error) {
    return `${line}  → failed: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`;
  }
}

async function loadState(file: string): Promise<ListenState> {
  try {
    const stored = JSON.parse(await readFile(file, "utf8")) as Partial<ListenState>;
    if (typeof stored.secret === "string" && stored.secret.startsWith("whsec_")) {
      return { secret: stored.secret, started: stored.started === true, after: typeof stored.after === "string" ? stored.after : null };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return { secret: `whsec_${randomBytes(24).toString("base64")}`, started: false, after: null };
}

/** Written whole then renamed: a process killed mid-write leaves the previous state, never half of one. */
async function saveState(file: string, state: ListenState): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state), { mode: 0o600 });
  await rename(temporary, file);
}
