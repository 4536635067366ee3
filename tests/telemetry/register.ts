// The server's instrumentation `register()`, alone in a process, for off.test.ts: prints which
// OpenTelemetry SDK modules it loaded and whether the product's span would be recorded, then stops.
import { createRequire } from "node:module";
import { closeDatabase } from "@/db";
import { register } from "@/instrumentation";
import { traced } from "@/lib/base/tracing";

await register();
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry[/\\](sdk-|exporter-)/.test(file));
const recording = await traced("probe", {}, async (span) => span.isRecording());
process.stdout.write(`${JSON.stringify({ sdkModules: loaded.length, recording })}\n`);
await closeDatabase();
process.exit(0);
