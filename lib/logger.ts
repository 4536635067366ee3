import { config } from "@/lib/config";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

function describe(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** One JSON line per entry on stderr; callers never pass secrets (keys, passwords, webhook secrets). */
function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (levels[level] < levels[config().LOG_LEVEL]) return;
  const entry: Record<string, unknown> = { level, time: new Date().toISOString(), message };
  for (const [name, value] of Object.entries(fields)) entry[name] = describe(value);
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
