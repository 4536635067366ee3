// The server's start-up (instrumentation's boot), alone in a process, for tests/faults: a start-up it
// refuses exits by itself; one it lets through is stopped again.
import { registerInngestDispatcher } from "@/inngest/dispatch";
import { boot } from "@/lib/adapters/boot";

const booted = await boot({ role: "web", registerDispatchers: registerInngestDispatcher });
await booted.stop();
