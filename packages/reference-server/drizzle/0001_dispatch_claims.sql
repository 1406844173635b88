ALTER TABLE "deliveries" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "locked_until" timestamp (3) with time zone;