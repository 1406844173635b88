CREATE TABLE "kept_statuses" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"message_id" text COLLATE "C",
	"provider_message_id" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"error_code" integer,
	"at" timestamp (3) with time zone NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_counts" ADD COLUMN "code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "message_counts" DROP CONSTRAINT "message_counts_campaign_id_status_pk";--> statement-breakpoint
ALTER TABLE "message_counts" ADD CONSTRAINT "message_counts_campaign_id_status_code_pk" PRIMARY KEY("campaign_id","status","code");--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "error_code" integer;--> statement-breakpoint
CREATE INDEX "kept_statuses_provider_message_id_idx" ON "kept_statuses" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "kept_statuses_received_at_idx" ON "kept_statuses" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "messages_provider_message_id_idx" ON "messages" USING btree ("provider_message_id");