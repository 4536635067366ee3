CREATE TABLE "sandbox_mail" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_mail_created_idx" ON "sandbox_mail" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sandbox_mail_recipient_created_idx" ON "sandbox_mail" USING btree ("recipient","created_at");