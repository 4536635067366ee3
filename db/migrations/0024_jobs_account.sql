ALTER TABLE "jobs" ADD COLUMN "account_id" text;--> statement-breakpoint
CREATE INDEX "jobs_running_account_idx" ON "jobs" USING btree ("account_id") WHERE status = 'running';--> statement-breakpoint
-- Rows still pending from before the column: their account, so the per-account cap sees them too.
UPDATE "jobs" SET "account_id" = i."account_id" FROM "listing_imports" i
  WHERE "jobs"."name" = 'listings.import' AND "jobs"."status" IN ('queued', 'running') AND i."id" = "jobs"."payload"->>'importId';--> statement-breakpoint
UPDATE "jobs" SET "account_id" = l."account_id" FROM "listings" l
  WHERE "jobs"."name" = 'photos.process' AND "jobs"."status" IN ('queued', 'running') AND l."id" = "jobs"."payload"->>'listingId';
