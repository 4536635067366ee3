CREATE TABLE "listing_feeds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text NOT NULL,
	"url" text NOT NULL,
	"mode" text DEFAULT 'upsert' NOT NULL,
	"max_withdrawals" integer,
	"interval_minutes" integer NOT NULL,
	"etag" text,
	"last_modified" text,
	"next_pull_at" timestamp with time zone NOT NULL,
	"pull_claimed_at" timestamp with time zone,
	"last_pull_at" timestamp with time zone,
	"last_pull_outcome" text,
	"last_pull_http_status" integer,
	"last_pull_error_code" text,
	"last_pull_import_id" text,
	"failing_since" timestamp with time zone,
	"failure_reported_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_imports" ADD COLUMN "feed_id" text;--> statement-breakpoint
ALTER TABLE "listing_feeds" ADD CONSTRAINT "listing_feeds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_feeds_account_idx" ON "listing_feeds" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "listing_feeds_due_idx" ON "listing_feeds" USING btree ("next_pull_at");--> statement-breakpoint
CREATE INDEX "listing_imports_feed_idx" ON "listing_imports" USING btree ("feed_id") WHERE feed_id is not null and status in ('queued', 'running');