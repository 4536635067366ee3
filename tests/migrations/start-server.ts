// The server's start-up (what instrumentation.ts runs), alone in a process, for release-step.test.ts:
// prints `started` when start-up let the server serve, then stops (start-up exits by itself when it refuses).
import { closeDatabase } from "@/db";
import { prepareServer } from "@/lib/adapters/startup";

await prepareServer();
process.stdout.write("started\n");
await closeDatabase();
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
process.exit(0);
