ALTER TABLE "oauth_clients" ALTER COLUMN "account_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ALTER COLUMN "secret_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "resource" text;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "registration" text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "client_uri" text;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "resource" text;