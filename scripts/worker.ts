/**
 * `npm run worker` (in the release bundle `node worker.mjs`): the embedded job runner and the webhook
 * delivery lane in a process of their own, without the web server, for a deployment whose web
 * instances run with `JOBS_RUNNER=off` (docs/jobs.md, Jobs). Started as the server is
 * (lib/adapters/boot.ts): tracing when configured, the database opened and checked, SIGTERM draining
 * the runner within `SHUTDOWN_GRACE_MS` and closing the database before exit 0.
 */
import { registerInngestDispatcher } from "@/inngest/dispatch";
import { boot } from "@/lib/adapters/boot";

await boot({ role: "worker", registerDispatchers: registerInngestDispatcher });
