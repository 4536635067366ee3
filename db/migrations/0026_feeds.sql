ALTER TABLE "listings" ADD COLUMN "source_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "withdrawn_by_import" text;--> statement-breakpoint
ALTER TABLE "listing_imports" ADD COLUMN "mode" text DEFAULT 'upsert' NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_imports" ADD COLUMN "max_withdrawals" integer;--> statement-breakpoint
ALTER TABLE "listing_imports" ADD COLUMN "refusal" jsonb;