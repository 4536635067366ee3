// The server's start-up (instrumentation's boot), alone in a process, for tests/faults: a start-up it
// refuses exits by itself; one it lets through is stopped again.
import { boot } from "@/lib/adapters/boot";

// Without Inngest, whose dispatchers the tests that run it register themselves.
const booted = await boot({ role: "web" });
await booted.stop();
