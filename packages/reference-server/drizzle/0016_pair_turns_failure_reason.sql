CREATE TABLE "pair_turns" (
	"key" text NOT NULL,
	"recipient" text NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "pair_turns_key_recipient_pk" PRIMARY KEY("key","recipient")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "failure_reason" text;--> statement-breakpoint
CREATE INDEX "pair_turns_key_last_at" ON "pair_turns" USING btree ("key","last_at");