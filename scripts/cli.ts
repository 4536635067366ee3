import { closeDatabase, configureDatabase } from "@/db";
import { exitOnUnpatchedDriver } from "@/db/driver-patch";
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
exitOnUnpatchedDriver((line) => process.stderr.write(`${line}\n`));
const argv = process.argv.slice(2);
// db:migrate opens the database as it is, neither migrated nor checked against this release:
// migrating it, and saying what it applied, is the command's work (in production too, where
// opening it for any other command refuses a schema behind the code).
const opening = argv[0] === "db:migrate" ? ({ migrations: "none" } as const) : {};
configureDatabase(() => ({ ...databaseSettings(), ...opening }));
// A command run here rather than in the server enqueues like the server does.
registerInngestDispatcher();
const exitCode = await runCli(argv, { stdout: write(process.stdout), stderr: write(process.stderr) });
await closeDatabase();
// Flushed before exiting: on some systems writes to a pipe complete asynchronously.
await new Promise<void>((resolve) => process.stdout.write("", () => process.stderr.write("", () => resolve())));
process.exit(exitCode);
