CREATE TABLE "listing_import_lines" (
	"import_id" text NOT NULL,
	"line" integer NOT NULL,
	"external_ref" text,
	"outcome" text NOT NULL,
	"listing_code" text,
	"error_code" text,
	"problem" jsonb,
	CONSTRAINT "listing_import_lines_import_id_line_pk" PRIMARY KEY("import_id","line")
);
--> statement-breakpoint
CREATE TABLE "listing_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"body" text,
	"upload_key" text,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "listing_import_lines" ADD CONSTRAINT "listing_import_lines_import_id_listing_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."listing_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_imports" ADD CONSTRAINT "listing_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_imports_account_idx" ON "listing_imports" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "listing_imports_pending_idx" ON "listing_imports" USING btree ("account_id") WHERE status in ('queued', 'running');