import { z } from "zod";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { parseOrThrow } from "@/lib/base/validation/zod";

/** Arguments as they come from the command line (and over the operator channel), before validation. */
export type RawArgs = Record<string, string | boolean>;

export type JsonObject = { [key: string]: unknown };

/** One operator command, ready to run: `execute` validates the raw arguments, then does the work. */
export interface Command {
  name: string;
  summary: string;
  /** `npm run cli -- <name> ...` as the operator types it, made from the argument schema. */
  usage: string;
  /** Names given to the positional arguments, in order. */
  positional: readonly string[];
  /** Flags that take no value (`--moderator`). */
  switches: ReadonlySet<string>;
  execute(ctx: ServiceContext<OperatorActor>, raw: RawArgs): Promise<JsonObject>;
}

export interface CommandOptions<S extends z.ZodObject> {
  /** `group:verb`, as typed after `npm run cli --`. */
  name: string;
  summary: string;
  positional?: readonly string[];
  /**
   * Keys are the flag names as typed (`redirect-uri` for `--redirect-uri`), so error pointers name
   * the flag. Values arrive as strings, `true` for switches (`z.boolean()`).
   */
  args: S;
  run(ctx: ServiceContext<OperatorActor>, args: z.output<S>): Promise<JsonObject>;
}

export function defineCommand<S extends z.ZodObject>(options: CommandOptions<S>): Command {
  const shape = options.args.shape as Record<string, z.ZodType>;
  const positional = options.positional ?? [];
  const switches = new Set(Object.keys(shape).filter((name) => isSwitch(shape[name])));
  return {
    name: options.name,
    summary: options.summary,
    usage: usageOf(options.name, shape, positional, switches),
    positional,
    switches,
    async execute(ctx, raw) {
      const unknown = Object.keys(raw).filter((name) => !(name in shape));
      if (unknown.length) throw new ValidationError(unknown.map((name) => ({ pointer: `/${name}`, code: "unknown_parameter" })));
      return options.run(ctx, parseOrThrow(options.args, raw));
    },
  };
}

/** A comma-separated flag value (`--permissions a,b`) as a non-empty list of `item`. */
export const commaList = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).min(1));

function unwrap(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional || schema instanceof z.ZodDefault ? unwrap(schema.unwrap() as z.ZodType) : schema;
}

const isSwitch = (schema: z.ZodType) => unwrap(schema) instanceof z.ZodBoolean;

function usageOf(name: string, shape: Record<string, z.ZodType>, positional: readonly string[], switches: ReadonlySet<string>): string {
  const parts = Object.keys(shape).map((key) => {
    const optional = shape[key].safeParse(undefined).success;
    const text = positional.includes(key) ? key.toUpperCase() : switches.has(key) ? `--${key}` : `--${key} ${key.toUpperCase()}`;
    return optional ? `[${text}]` : text;
  });
  return ["npm run cli --", name, ...parts].join(" ");
}
