import { database } from "@/db";
import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { pingUpstash } from "@/lib/infra/rate-limit";
import { vercelBlobOrigin } from "@/lib/infra/storage/vercel-origin";
import { shutdownBegun } from "./shutdown-state";

export type CheckStatus = "ok" | "failing";
export interface Check {
  status: CheckStatus;
  ms?: number;
}
export interface Readiness {
  status: "ok" | "degraded" | "unavailable";
  checks: Record<string, Check>;
}

/** Each check's bound: a load balancer probes every few seconds and must get an answer well within its own time-out. */
export const checkTimeoutMs = 2_000;

/**
 * Whether this instance should get traffic (`GET /api/health/ready`). The checks run in parallel,
 * each under `checkTimeoutMs`:
 * - `database`: a `select 1` on a connection of its own (`Database.ping`), so a pool busy with requests
 *   does not take a serving instance out; failing → `unavailable` (no request can be served without it);
 * - `redis`, when `UPSTASH_REDIS_REST_*` is set: a PING; failing → `degraded` only, since the rate
 *   limiter then counts per process and every request is still answered (docs/operations.md, Health and shutdown);
 * - `blob` and `inngest`, when any of their variables is set: that the configuration is complete
 *   (a half-configured instance would fail every upload or lose every job); failing → `unavailable`.
 * From the moment shutdown begins the answer is `unavailable` without checking anything.
 * Why a check fails is logged here (when it starts failing), never answered: drivers' messages carry addresses.
 */
export async function checkReadiness(): Promise<Readiness> {
  if (shutdownBegun()) return { status: "unavailable", checks: { shutdown: { status: "failing" } } };
  const c = config();
  const checks: [string, Promise<Check>, "required" | "optional"][] = [["database", timed("database", pingDatabase), "required"]];
  if (c.UPSTASH_REDIS_REST_URL || c.UPSTASH_REDIS_REST_TOKEN) checks.push(["redis", timed("redis", pingRedis), "optional"]);
  if (c.BLOB_READ_WRITE_TOKEN || c.VERCEL_BLOB_API_URL) checks.push(["blob", configured("blob", blobProblem()), "required"]);
  if (c.INNGEST_EVENT_KEY || c.INNGEST_SIGNING_KEY) checks.push(["inngest", configured("inngest", inngestProblem()), "required"]);
  const results = await Promise.all(checks.map(([, check]) => check));
  const failing = (kind: "required" | "optional") => checks.some(([, , k], i) => k === kind && results[i].status === "failing");
  return {
    status: failing("required") ? "unavailable" : failing("optional") ? "degraded" : "ok",
    checks: Object.fromEntries(checks.map(([name], i) => [name, results[i]])),
  };
}

async function pingDatabase(): Promise<void> {
  await (await database()).ping();
}

async function pingRedis(): Promise<void> {
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = config();
  if (!url || !token) throw new Error("UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set together or not at all");
  const answer = await pingUpstash({ url, token, timeoutMs: checkTimeoutMs });
  if (answer !== "ok") throw new Error(`Upstash Redis did not answer PING (${answer})`);
}

function blobProblem(): string | undefined {
  const token = config().BLOB_READ_WRITE_TOKEN;
  if (!token) return "VERCEL_BLOB_API_URL is set without BLOB_READ_WRITE_TOKEN";
  try {
    vercelBlobOrigin(token);
  } catch {
    return "BLOB_READ_WRITE_TOKEN does not have the form vercel_blob_rw_<store id>_<secret>";
  }
}

function inngestProblem(): string | undefined {
  const c = config();
  if (c.INNGEST_DEV || (c.INNGEST_EVENT_KEY && c.INNGEST_SIGNING_KEY)) return undefined;
  return "INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY are set together (or INNGEST_DEV=1)";
}

/** A check that reaches out: its time, and `failing` on an error or after `checkTimeoutMs`. */
async function timed(name: string, run: () => Promise<void>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
  });
  try {
    await Promise.race([run(), timeout]);
    changed(name, "ok");
    return { status: "ok", ms: Math.round(performance.now() - started) };
  } catch (error) {
    changed(name, "failing", { error });
    return { status: "failing", ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

async function configured(name: string, problem: string | undefined): Promise<Check> {
  changed(name, problem ? "failing" : "ok", { reason: problem });
  return { status: problem ? "failing" : "ok" };
}

/** Each check's last status: a probe every few seconds logs when a check starts failing and when it recovers, not each time. */
const lastStatus = new Map<string, CheckStatus>();

function changed(name: string, status: CheckStatus, detail: Record<string, unknown> = {}): void {
  const before = lastStatus.get(name);
  lastStatus.set(name, status);
  if (status === "failing" && before !== "failing") logger.warn("readiness check failing", { check: name, ...detail });
  if (status === "ok" && before === "failing") logger.info("readiness check ok again", { check: name });
}
