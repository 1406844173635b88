CREATE TABLE "campaign_runs" (
	"company_uuid" text COLLATE "C" NOT NULL,
	"campaign_id" text COLLATE "C" NOT NULL,
	"run_key" text NOT NULL,
	CONSTRAINT "campaign_runs_campaign_id_run_key_pk" PRIMARY KEY("campaign_id","run_key")
);
--> statement-breakpoint
CREATE TABLE "message_counts" (
	"company_uuid" text COLLATE "C" NOT NULL,
	"campaign_id" text COLLATE "C" NOT NULL,
	"status" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "message_counts_campaign_id_status_pk" PRIMARY KEY("campaign_id","status")
);
--> statement-breakpoint
CREATE INDEX "campaign_runs_company_idx" ON "campaign_runs" USING btree ("company_uuid");--> statement-breakpoint
CREATE INDEX "message_counts_company_idx" ON "message_counts" USING btree ("company_uuid");--> statement-breakpoint
INSERT INTO "message_counts" ("company_uuid", "campaign_id", "status", "n") SELECT "company_uuid", "campaign_id", "status", count(*)::int FROM "messages" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "campaign_runs" ("company_uuid", "campaign_id", "run_key") SELECT DISTINCT "company_uuid", "campaign_id", "run_key" FROM "messages";
