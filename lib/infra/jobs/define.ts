import { CronExpressionParser } from "cron-parser";
import type { z } from "zod";
import type { ServiceContext, SystemActor } from "@/lib/base/context";

/** What a handler receives besides its payload; it can call services `verb({ ctx, input })` directly. */
export interface JobContext extends ServiceContext<SystemActor> {
  job: {
    id: string;
    name: string;
    attempt: number;
    /** The row's account (`null` for system work): a handler that enqueues follow-up work passes it on. */
    accountId: string | null;
    /**
     * Renews the run's lease on its row when a third of the lease has passed since the claim or the
     * last renewal (by the context's clock); resolves false once the row is another run's (the lease
     * ended and it was claimed again): the handler must stop writing then.
     */
    renewLease(): Promise<boolean>;
  };
}

/**
 * What a job is to those who enqueue it: its name and the payload it takes. A domain declares its
 * jobs (`declareJob`) beside its services and enqueues them; the worker binds each to its handler,
 * retries and schedule (`defineJob`, lib/adapters/worker), so the domain never imports the worker.
 */
export interface JobDeclaration<P extends z.ZodType = z.ZodType> {
  /** Stable name: stored in the jobs rows and used as the Inngest event `jobs/<name>`. */
  readonly name: string;
  readonly payload: P;
  /**
   * The work of one account (an import, a photo list): enqueued with its `accountId`, and run at
   * most `maxRunningJobsPerAccount` at a time per account, so that account's burst never holds
   * every runner slot.
   */
  readonly accountScoped?: boolean;
}

export interface JobOptions<P extends z.ZodType> extends JobDeclaration<P> {
  /**
   * Waits before each retry after a failed attempt: `[60, 300]` means at most three attempts, the
   * second a minute after the first fails, the third five minutes after the second fails.
   */
  retry: { delaysSeconds: readonly number[] };
  /**
   * How long a claim holds the row, in seconds (`defaultJobLeaseSeconds`, 600, unless given). A job
   * with a short lease calls `ctx.job.renewLease()` as it works, so that a run whose process died
   * is taken up by another runner soon after, never one that still works.
   */
  leaseSeconds?: number;
  /** Five-field cron expression in UTC; the runner (or Inngest) starts the job with payload `{}`. */
  cron?: string;
  /**
   * Plain async work in lib/. It must finish within the claim lease (`leaseSeconds`), or renew it,
   * and be safe to run again: a process that dies mid-run leaves the row to be claimed once more.
   */
  handler(payload: z.output<P>, ctx: JobContext): Promise<unknown>;
  /**
   * Gives up what a run holds besides its row (a listing's photo lease), when the process stops
   * before the run ends (shutdown past its grace): another instance can take the work up at once.
   */
  giveBack?(payload: z.output<P>, ctx: JobContext): Promise<void>;
}

export interface JobDefinition<P extends z.ZodType = z.ZodType> extends JobOptions<P> {
  readonly maxAttempts: number;
}

/**
 * How many jobs of one account (`accountScoped`) may run at once, across runners: the rest of the account's due rows
 * wait while other accounts' rows are claimed. Runners larger than this always have a slot left
 * for another account; the Inngest functions of account-scoped jobs carry the same limit.
 */
export const maxRunningJobsPerAccount = 2;

const jobNamePattern = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;

export function declareJob<P extends z.ZodType>(declaration: JobDeclaration<P>): JobDeclaration<P> {
  if (!jobNamePattern.test(declaration.name)) throw new Error(`Job name "${declaration.name}" must be lower-case words`);
  return declaration;
}

export function defineJob<P extends z.ZodType>(options: JobOptions<P>): JobDefinition<P> {
  declareJob(options);
  if (options.retry.delaysSeconds.some((delay) => !Number.isInteger(delay) || delay < 1)) {
    // A zero delay would make a failing job due again within the same runDueJobs pass.
    throw new Error(`Job "${options.name}": retry delays are whole seconds, at least 1`);
  }
  if (options.leaseSeconds !== undefined && (!Number.isInteger(options.leaseSeconds) || options.leaseSeconds < 3)) {
    // A third of it is the renewal's step: whole seconds, at least one.
    throw new Error(`Job "${options.name}": the lease is whole seconds, at least 3`);
  }
  if (options.cron !== undefined) {
    // Inngest accepts the classic five fields; the embedded runner must read the same schedule.
    if (options.cron.trim().split(/\s+/).length !== 5) {
      throw new Error(`Cron job "${options.name}": use a five-field cron expression`);
    }
    CronExpressionParser.parse(options.cron);
    if (!options.payload.safeParse({}).success) {
      throw new Error(`Cron job "${options.name}" must accept the empty payload {}`);
    }
  }
  return { ...options, maxAttempts: options.retry.delaysSeconds.length + 1 };
}

/** The first occurrence of a cron expression strictly after `after` (UTC). */
export function nextOccurrence(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: "UTC" }).next().toDate();
}

/** The dedupe key that keeps one pending occurrence per cron job. */
export const cronDedupeKey = (name: string): string => `cron:${name}`;
