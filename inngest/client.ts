import { Inngest } from "inngest";

/**
 * The Inngest client. It reads its mode from the environment: `INNGEST_EVENT_KEY` and
 * `INNGEST_SIGNING_KEY` for Inngest Cloud, `INNGEST_DEV=1` (or the dev server's URL) locally.
 */
export const inngest = new Inngest({ id: "listings-platform" });
