import path from "node:path";
import { z } from "zod";
import type { DatabaseSettings } from "@/db";
import { encryptionKeyList } from "./encryption-key-list";

/**
 * Every environment variable the application reads, parsed once. The operations guide (docs/operations.md) lists the same set;
 * a missing variable selects the embedded default of its component (docs/operations.md, Embedded defaults and
 * scale-out services).
 */
const envSchema = z.object({
  APP_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  APP_URL: z.string().url().default("http://localhost:3000"),
  DATABASE_URL: z.string().min(1).optional(),
  // The direct (session) address when DATABASE_URL is a pooler: migrations and LISTEN go there (Neon's and Vercel's name).
  DATABASE_URL_UNPOOLED: z.string().min(1).optional(),
  // What DATABASE_URL is: `transaction` for a transaction-mode pooler (no named prepared statements on it),
  // `session` for PostgreSQL itself or a session-mode pooler. Default: `transaction` when DATABASE_URL_UNPOOLED
  // names another address, `session` otherwise (docs/operations.md, Poolers).
  DATABASE_POOLING: z.enum(["session", "transaction"]).optional(),
  // Read replicas of DATABASE_URL's database, comma-separated PostgreSQL addresses: the reads that tolerate lag go
  // there (docs/operations.md, Read replicas). None by default.
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^postgres(ql)?$/, error: "each replica is a postgres:// or postgresql:// address" })))
    .optional(),
  /** Connections of this process's PostgreSQL pool (the delivery lane's LISTEN takes one more). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  PGLITE_DIR: z.string().min(1).default(".data/pglite"),
  // `1`: a production server on PostgreSQL applies pending migrations when it starts. Otherwise it
  // migrates as a release step (`npm run db:migrate`) and refuses to start on a schema behind its code.
  MIGRATE_ON_START: z.enum(["0", "1"]).default("0"),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  INNGEST_DEV: z.string().min(1).optional(),
  // Read by the Inngest SDK itself: Inngest's address for events and syncs, for the tests' local fake.
  INNGEST_BASE_URL: z.string().url().optional(),
  // Files go to Vercel Blob when set (`vercel_blob_rw_<store id>_<secret>`), otherwise to `.data/blobs` (lib/infra/storage).
  BLOB_READ_WRITE_TOKEN: z.string().min(1).optional(),
  // The local storage's folder when BLOB_READ_WRITE_TOKEN is not set (tests give each file its own).
  BLOB_DIR: z.string().min(1).default(".data/blobs"),
  // Photos processed at once by one process (sharp's work); default: the machine's cores, at most 4.
  PHOTO_CONCURRENCY: z.coerce.number().int().min(1).max(32).optional(),
  // Read by @vercel/blob itself on every call: another Blob API address, for the tests' local fake.
  VERCEL_BLOB_API_URL: z.string().url().optional(),
  JOBS_RUNNER: z.enum(["on", "off"]).default("on"),
  API_LOG: z.enum(["on", "off"]).default("on"),
  // How long shutdown waits (from SIGTERM) for requests, jobs and webhook attempts in flight (docs/operations.md, Health and shutdown).
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Traces and metrics go over OTLP/HTTP to this collector when set (`/v1/traces`, `/v1/metrics` appended); off otherwise.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("listings-platform"),
  // Without SMTP_URL mail goes to the sandbox mailbox (lib/infra/mail); production refuses to send.
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(1).default("Listings <no-reply@localhost>"),
  // Signs and encrypts portal sessions (Auth.js). Required in production; the sandbox keeps one in `.data/auth-secret`.
  AUTH_SECRET: z.string().min(32).optional(),
  // Secrets AUTH_SECRET replaced, comma-separated: sessions and form tokens they sealed still open until they expire.
  AUTH_SECRET_PREVIOUS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((secret) => secret.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, "each previous secret has 32 characters or more")))
    .optional(),
  // Keys sealing stored secrets (webhook signing secrets), `id:base64key` comma-separated, newest first. Required in production.
  ENCRYPTION_KEYS: encryptionKeyList.optional(),
  // ISO 8601 dates; one that does not parse announces nothing (lib/adapters/http/versions.ts).
  API_V1_DEPRECATED_AT: z.string().optional(),
  API_V1_SUNSET_AT: z.string().optional(),
  API_V1_DEPRECATION_LINK: z.string().optional(),
  // `1` lets outbound requests (webhooks) use http:// and reach loopback addresses, for local receivers; refused in production.
  UNSAFE_ALLOW_LOCAL_URLS: z.enum(["0", "1"]).default("0"),
  // Set by Next.js: `development` under `next dev`.
  NODE_ENV: z.string().optional(),
});

export type AppConfig = z.infer<typeof envSchema> & { dataDir: string };

let cached: AppConfig | undefined;

export function config(): AppConfig {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    // The messages name fields, ids and lengths, never values (encryption-key-list.ts words its own).
    const fields = parsed.error.issues.map((issue) => `${issue.path.join(".")} (${issue.message})`).join(", ");
    throw new Error(`Invalid environment variables: ${fields}`);
  }
  cached = { ...parsed.data, dataDir: path.resolve(parsed.data.PGLITE_DIR) };
  return cached;
}

/** Tests change the environment between files; they call this to read it again. */
export function resetConfig(): void {
  cached = undefined;
}

/** The process-wide database's settings, for `configureDatabase` (db/ reads no environment of its own). */
export function databaseSettings(): DatabaseSettings {
  const c = config();
  return {
    url: c.DATABASE_URL,
    directUrl: c.DATABASE_URL_UNPOOLED,
    pooling: databasePooling(c),
    replicaUrls: c.DATABASE_REPLICA_URLS,
    poolSize: c.DATABASE_POOL_SIZE,
    dataDir: c.PGLITE_DIR.startsWith("memory://") ? c.PGLITE_DIR : c.dataDir,
    migrations: migrationsOnOpen(c),
  };
}

/** What `DATABASE_URL` is, as set, or as `DATABASE_URL_UNPOOLED` implies: a second, direct address means the first is a pooler. */
export const databasePooling = (c: AppConfig): "session" | "transaction" =>
  c.DATABASE_POOLING ?? (c.DATABASE_URL_UNPOOLED && c.DATABASE_URL_UNPOOLED !== c.DATABASE_URL ? "transaction" : "session");

/**
 * Production on PostgreSQL migrates as a release step, `npm run db:migrate` run once before the new
 * code serves, so opening only checks that the schema is not behind (a newer one is fine: an older
 * instance still running while a newer release rolls out). `MIGRATE_ON_START=1` migrates on opening
 * instead. The embedded database (one machine) and the sandbox migrate on opening.
 */
const migrationsOnOpen = (c: AppConfig): DatabaseSettings["migrations"] =>
  c.DATABASE_URL && c.APP_ENV === "production" && c.MIGRATE_ON_START !== "1" ? "verify" : "apply";

export const inngestConfigured = (): boolean => {
  const c = config();
  return Boolean((c.INNGEST_EVENT_KEY && c.INNGEST_SIGNING_KEY) || c.INNGEST_DEV);
};

/**
 * Where `sendMail` delivers: SMTP when `SMTP_URL` is set; otherwise the sandbox mailbox (a table, a
 * page and the server log), which production never uses: a production server without SMTP has none.
 */
export const mailDelivery = (): "smtp" | "sandbox-mailbox" | "none" => {
  const c = config();
  if (c.SMTP_URL) return "smtp";
  return c.APP_ENV === "sandbox" ? "sandbox-mailbox" : "none";
};

/**
 * Whether outbound requests may use http:// and reach loopback addresses (never private ranges). Never in
 * production, even where start-up's refusal did not run (the CLI, scripts).
 */
export const localUrlsAllowed = (): boolean => {
  const c = config();
  return c.UNSAFE_ALLOW_LOCAL_URLS === "1" && c.APP_ENV !== "production";
};
