// The server's start-up (instrumentation's boot), alone in a process, for release-step.test.ts:
// prints `started` when start-up let the server serve, then stops (start-up exits by itself when it refuses).
import { boot } from "@/lib/adapters/boot";

// Without Inngest, whose dispatchers the tests that run it register themselves.
const booted = await boot({ role: "web" });
process.stdout.write("started\n");
await booted.stop();
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
process.exit(0);
