// The server's start-up (what instrumentation.ts runs), alone in a process, for tests/faults.
import { prepareServer } from "@/lib/adapters/startup";

await prepareServer();
