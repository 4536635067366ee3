import { closeDatabase } from "@/db";
import { runCli } from "@/lib/platform/cli/main";

const write = (stream: NodeJS.WriteStream) => (text: string) => stream.write(text);
const exitCode = await runCli(process.argv.slice(2), { stdout: write(process.stdout), stderr: write(process.stderr) });
await closeDatabase();
// Flushed before exiting: on some systems writes to a pipe complete asynchronously.
await new Promise<void>((resolve) => process.stdout.write("", () => process.stderr.write("", () => resolve())));
process.exit(exitCode);
