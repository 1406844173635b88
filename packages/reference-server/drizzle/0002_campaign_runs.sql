ALTER TABLE "campaigns" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "locked_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "variables" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "campaigns_next_run_idx" ON "campaigns" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "messages_company_campaign_status_idx" ON "messages" USING btree ("company_uuid","campaign_id","status");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_run_customer_unique" UNIQUE("campaign_id","run_key","customer_id");