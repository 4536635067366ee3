-- Test deliveries (webhook.test) kept in the delivery log: no outbox event (event_seq null), the body as sent
-- in test_body, never queued. Numbered 0029 after the migrations 0026-0028 of work in progress elsewhere.
-- The check is added NOT VALID: every existing row satisfies it (event_seq set, test_body null, as the column
-- is new), so the log is not scanned under the table's lock; it holds for every row written from now on.
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_seq" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "test_body" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_test_check" CHECK (case when event_seq is null then test_body is not null and status in ('succeeded', 'failed') else test_body is null end) NOT VALID;
