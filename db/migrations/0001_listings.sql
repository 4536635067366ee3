CREATE TABLE "currency_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"eur_per_unit" numeric(18, 8) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"key_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listing_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"listing_id" text NOT NULL,
	"reason" text NOT NULL,
	"reporter_email" text,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"account_id" text NOT NULL,
	"agency_id" text,
	"external_ref" text,
	"type" text NOT NULL,
	"transaction" text NOT NULL,
	"status" text NOT NULL,
	"fields" jsonb NOT NULL,
	"pending_fields" jsonb,
	"rejection_reason" text,
	"rejection_codes" text[],
	"city" text,
	"rooms" integer,
	"price_eur" bigint,
	"version" integer DEFAULT 1 NOT NULL,
	"mod_seq" bigserial NOT NULL,
	"source" text NOT NULL,
	"media_processing" boolean DEFAULT false NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"published_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "listings_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_reports" ADD CONSTRAINT "listing_reports_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_pk" ON "idempotency_keys" USING btree ("key_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "listing_reports_open_idx" ON "listing_reports" USING btree ("listing_id","status");--> statement-breakpoint
CREATE INDEX "listings_account_mod_idx" ON "listings" USING btree ("account_id","mod_seq");--> statement-breakpoint
CREATE INDEX "listings_agency_mod_idx" ON "listings" USING btree ("agency_id","mod_seq");--> statement-breakpoint
CREATE INDEX "listings_catalog_idx" ON "listings" USING btree ("status","mod_seq");--> statement-breakpoint
CREATE INDEX "listings_catalog_search_idx" ON "listings" USING btree ("status","type","transaction","city","price_eur");--> statement-breakpoint
CREATE INDEX "listings_confirm_idx" ON "listings" USING btree ("status","confirmed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "listings_external_ref_idx" ON "listings" USING btree ("account_id","external_ref") WHERE deleted_at is null and external_ref is not null;--> statement-breakpoint
CREATE INDEX "events_account_seq_idx" ON "events" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");