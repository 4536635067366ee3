CREATE TABLE "sandbox_webhook_receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"webhook_id" text,
	"verified" boolean NOT NULL,
	"failure" text,
	"message_id" text,
	"event_type" text,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_webhook_receipts" ADD CONSTRAINT "sandbox_webhook_receipts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_webhook_receipts" ADD CONSTRAINT "sandbox_webhook_receipts_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_webhook_receipts_account_idx" ON "sandbox_webhook_receipts" USING btree ("account_id","received_at");--> statement-breakpoint
CREATE INDEX "sandbox_webhook_receipts_received_idx" ON "sandbox_webhook_receipts" USING btree ("received_at");