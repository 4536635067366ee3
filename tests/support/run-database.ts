import type { DatabaseSettings } from "@/db";

/**
 * How this run reaches a database of its own (a throwaway one a test made on `PG_ADMIN_URL`): through
 * the run's PgBouncer when `npm run test:pg` put one in front of PostgreSQL (`DATABASE_URL` is then the
 * pooler's and `DATABASE_URL_UNPOOLED` the direct address), directly otherwise. The pooler forwards
 * every database name, so only the host and port change.
 */
export function reachDatabase(directUrl: string): { url: string; directUrl?: string } {
  const pooler = process.env.DATABASE_URL_UNPOOLED ? process.env.DATABASE_URL : undefined;
  if (!pooler) return { url: directUrl };
  const pooled = new URL(directUrl);
  pooled.host = new URL(pooler).host;
  return { url: pooled.toString(), directUrl };
}

/** The settings that open `directUrl`'s database in this process as the run reaches its own. */
export function reachSettings(directUrl: string): Pick<DatabaseSettings, "url" | "directUrl" | "pooling"> {
  const { url, directUrl: direct } = reachDatabase(directUrl);
  return direct ? { url, directUrl: direct, pooling: "transaction" } : { url };
}

/** The variables that point a child process at `directUrl`'s database as the run reaches its own. */
export function reachEnv(directUrl: string): Record<string, string> {
  const { url, directUrl: direct } = reachDatabase(directUrl);
  return direct ? { DATABASE_URL: url, DATABASE_URL_UNPOOLED: direct } : { DATABASE_URL: url };
}
