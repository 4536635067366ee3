import { registerInngestDispatcher } from "@/inngest/dispatch";
import { boot } from "@/lib/adapters/boot";
import { runCli } from "@/lib/adapters/cli/main";

const write = (stream: NodeJS.WriteStream) => (text: string) => stream.write(text);
const argv = process.argv.slice(2);
// db:migrate opens the database as it is, neither migrated nor checked against this release:
// migrating it, and saying what it applied, is the command's work (in production too, where
// opening it for any other command refuses a schema behind the code). A command run here rather
// than in the server enqueues like the server does (the dispatchers).
const booted = await boot({
  role: "cli",
  registerDispatchers: registerInngestDispatcher,
  database: argv[0] === "db:migrate" ? { migrations: "none" } : {},
});
const exitCode = await runCli(argv, { stdout: write(process.stdout), stderr: write(process.stderr) });
await booted.stop();
// Flushed before exiting: on some systems writes to a pipe complete asynchronously.
await new Promise<void>((resolve) => process.stdout.write("", () => process.stderr.write("", () => resolve())));
process.exit(exitCode);
