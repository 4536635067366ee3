import { closeDatabase, configureDatabase } from "@/db";
import { registerInngestDispatcher } from "@/inngest/dispatch";
import { runCli } from "@/lib/adapters/cli/main";
import { databaseSettings } from "@/lib/base/config";
import { unsupportedNodeMessage } from "@/lib/base/node-version";

const write = (stream: NodeJS.WriteStream) => (text: string) => stream.write(text);
const tooOld = unsupportedNodeMessage();
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
configureDatabase(databaseSettings);
// A command run here rather than in the server enqueues like the server does.
registerInngestDispatcher();
const exitCode = await runCli(process.argv.slice(2), { stdout: write(process.stdout), stderr: write(process.stderr) });
await closeDatabase();
// Flushed before exiting: on some systems writes to a pipe complete asynchronously.
await new Promise<void>((resolve) => process.stdout.write("", () => process.stderr.write("", () => resolve())));
process.exit(exitCode);
