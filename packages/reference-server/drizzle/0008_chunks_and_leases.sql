CREATE TABLE "campaign_chunks" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"campaign_id" text COLLATE "C" NOT NULL,
	"run_key" text NOT NULL,
	"seq" integer NOT NULL,
	"after_id" text COLLATE "C",
	"through_id" text COLLATE "C",
	"done" boolean DEFAULT false NOT NULL,
	"claim_token" text,
	"claim_until" timestamp (3) with time zone,
	CONSTRAINT "campaign_chunks_run_seq_unique" UNIQUE("campaign_id","run_key","seq")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "claim_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "campaign_chunks" ADD CONSTRAINT "campaign_chunks_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_chunks_open_idx" ON "campaign_chunks" USING btree ("run_key","seq","campaign_id") WHERE NOT "campaign_chunks"."done";--> statement-breakpoint
CREATE INDEX "campaign_chunks_claim_idx" ON "campaign_chunks" USING btree ("claim_token") WHERE NOT "campaign_chunks"."done";--> statement-breakpoint
CREATE INDEX "customers_company_id_idx" ON "customers" USING btree ("company_uuid","id");--> statement-breakpoint
CREATE INDEX "deliveries_claim_idx" ON "deliveries" USING btree ("claim_token") WHERE "deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "idempotency_keys_claim_idx" ON "idempotency_keys" USING btree ("claim_token") WHERE "idempotency_keys"."status" IS NULL;--> statement-breakpoint
-- Runs in progress when the server was upgraded go on in chunks: their campaigns are due again (their
-- messages already recorded are kept, one a customer), and a message recorded without an answer is
-- failed as before (it may have reached the provider), with its count moved.
INSERT INTO "message_counts" ("company_uuid", "campaign_id", "status", "n")
  SELECT "company_uuid", "campaign_id", 'failed', count(*) FROM "messages" WHERE "status" = 'pending' GROUP BY "company_uuid", "campaign_id"
  ON CONFLICT ("campaign_id", "status") DO UPDATE SET "n" = "message_counts"."n" + excluded."n";--> statement-breakpoint
UPDATE "message_counts" SET "n" = 0 WHERE "status" = 'pending';--> statement-breakpoint
UPDATE "messages" SET "status" = 'failed', "error" = 'interrupted: the run stopped before the channel answered; not sent again' WHERE "status" = 'pending';--> statement-breakpoint
UPDATE "campaigns" SET "status" = 'scheduled', "claim_token" = NULL, "locked_until" = NULL WHERE "status" = 'running';
