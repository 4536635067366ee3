import { config } from "@/lib/base/config";
import { activeTraceIds } from "@/lib/base/tracing";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

/** Errors keep their `code` and `cause` (drizzle wraps the driver's error, whose code says what failed). */
function describe(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const { code, cause } = value as Error & { code?: unknown };
  return {
    name: value.name,
    message: value.message,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    stack: value.stack,
    ...(cause instanceof Error && depth < 3 ? { cause: describe(cause, depth + 1) } : {}),
  };
}

/** One JSON line per entry on stderr; callers never pass secrets (keys, passwords, webhook secrets). */
function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (levels[level] < levels[config().LOG_LEVEL]) return;
  // Inside a recorded span the line names its trace, so a collector's trace view and the logs meet.
  const entry: Record<string, unknown> = { level, time: new Date().toISOString(), message, ...activeTraceIds() };
  for (const [name, value] of Object.entries(fields)) entry[name] = describe(value);
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
