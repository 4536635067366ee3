-- Hand-written: drizzle-kit cannot express partitioned tables (its snapshot, 0017_snapshot.json,
-- records the new primary keys and the dropped foreign key). api_log and events become tables
-- partitioned by week on created_at, so that retention drops whole weeks (README, Jobs). Every row is
-- moved in this migration's transaction: the old table is renamed, its rows copied, then dropped.
--
-- ensure_partitions: the partitions `<parent>_pYYYYMMDD` (one UTC `period` each, 'day', 'week'
-- or 'month', named by its first day) covering first_day to last_day that do not exist yet, created
-- empty, filled with the rows of their period the DEFAULT partition held, then attached (SHARE
-- UPDATE EXCLUSIVE on the parent: readers and writers go on). Returns how many it created. The
-- partitions job calls it for the days ahead.
CREATE FUNCTION "ensure_partitions"(parent text, period text, first_day date, last_day date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  start date := date_trunc(period, first_day)::date;
  next date;
  partition text;
  low text;
  high text;
  created integer := 0;
BEGIN
  -- One creator at a time (the key is lib/adapters/worker/partitions.ts's partitionLockKey, "part"):
  -- two would both find a partition missing and the second CREATE would fail.
  PERFORM pg_advisory_xact_lock(1885434484);
  WHILE start <= last_day LOOP
    next := (start + ('1 ' || period)::interval)::date;
    partition := format('%s_p%s', parent, to_char(start, 'YYYYMMDD'));
    IF to_regclass(quote_ident(partition)) IS NULL THEN
      low := quote_literal((start::timestamp AT TIME ZONE 'UTC')::text);
      high := quote_literal((next::timestamp AT TIME ZONE 'UTC')::text);
      EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition, parent);
      EXECUTE format('WITH moved AS (DELETE FROM %I WHERE created_at >= %s AND created_at < %s RETURNING *) INSERT INTO %I SELECT * FROM moved',
        parent || '_default', low, high, partition);
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', parent, partition, low, high);
      created := created + 1;
    END IF;
    start := next;
  END LOOP;
  RETURN created;
END $$;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_seq_events_seq_fk";
--> statement-breakpoint
ALTER TABLE "api_log" RENAME TO "api_log_unpartitioned";
--> statement-breakpoint
CREATE TABLE "api_log" (
	"id" bigint DEFAULT nextval('api_log_id_seq') NOT NULL,
	"request_id" text NOT NULL,
	"key_id" text,
	"account_id" text,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"query" text,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"ip" text,
	"request_body" jsonb,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_log_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
-- The sequence follows the new table, or dropping the old one would drop it.
ALTER SEQUENCE "api_log_id_seq" OWNED BY "api_log"."id";
--> statement-breakpoint
CREATE TABLE "api_log_default" PARTITION OF "api_log" DEFAULT;
--> statement-breakpoint
-- Weeks from the oldest row's (this week when there is none) to a week ahead; rows older than the
-- retention (365 days) go to the DEFAULT partition, where the retention job deletes them.
SELECT "ensure_partitions"('api_log', 'week',
  (greatest(coalesce((SELECT min("created_at") FROM "api_log_unpartitioned"), now()), now() - interval '366 days') AT TIME ZONE 'UTC')::date,
  (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "api_log" ("id", "request_id", "key_id", "account_id", "method", "path", "query", "status", "duration_ms", "ip", "request_body", "response_body", "created_at")
  SELECT "id", "request_id", "key_id", "account_id", "method", "path", "query", "status", "duration_ms", "ip", "request_body", "response_body", "created_at"
  FROM "api_log_unpartitioned";
--> statement-breakpoint
DROP TABLE "api_log_unpartitioned";
--> statement-breakpoint
CREATE INDEX "api_log_account_idx" ON "api_log" USING btree ("account_id","created_at");
--> statement-breakpoint
CREATE INDEX "api_log_created_idx" ON "api_log" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "api_log_key_idx" ON "api_log" USING btree ("key_id","created_at");
--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint DEFAULT nextval('events_seq_seq') NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_seq_created_at_pk" PRIMARY KEY("seq","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
ALTER SEQUENCE "events_seq_seq" OWNED BY "events"."seq";
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
SELECT "ensure_partitions"('events', 'week',
  (greatest(coalesce((SELECT min("created_at") FROM "events_unpartitioned"), now()), now() - interval '36 days') AT TIME ZONE 'UTC')::date,
  (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "events" ("seq", "account_id", "type", "data", "created_at")
  SELECT "seq", "account_id", "type", "data", "created_at" FROM "events_unpartitioned";
--> statement-breakpoint
DROP TABLE "events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "events_account_seq_idx" ON "events" USING btree ("account_id","seq");
--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");
