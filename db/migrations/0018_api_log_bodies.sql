-- Hand-written: drizzle-kit cannot express partitioned tables (its snapshot, 0018_snapshot.json,
-- records the table and the dropped columns). The API log's request and response bodies move out of
-- `api_log` into `api_log_bodies`, partitioned by day on the row's created_at: retention drops each
-- day's bodies whole once it is 30 days old, where it used to rewrite a week of rows with nulls and
-- kept the bodies up to 37 days (lib/adapters/worker/partitions.ts). Bodies older than 30 days are not
-- copied: the spec keeps them 30 days. A row without bodies has no row here.
CREATE TABLE "api_log_bodies" (
	"id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"request_body" jsonb,
	"response_body" jsonb,
	CONSTRAINT "api_log_bodies_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "api_log_bodies_default" PARTITION OF "api_log_bodies" DEFAULT;
--> statement-breakpoint
SELECT "ensure_partitions"('api_log_bodies', 'day',
  ((now() - interval '30 days') AT TIME ZONE 'UTC')::date,
  (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "api_log_bodies" ("id", "created_at", "request_body", "response_body")
  SELECT "id", "created_at", "request_body", "response_body" FROM "api_log"
  WHERE ("request_body" IS NOT NULL OR "response_body" IS NOT NULL) AND "created_at" >= now() - interval '30 days';
--> statement-breakpoint
-- The weeks' `<partition>_cleared` checks name only these columns and go with them.
ALTER TABLE "api_log" DROP COLUMN "request_body";
--> statement-breakpoint
ALTER TABLE "api_log" DROP COLUMN "response_body";
