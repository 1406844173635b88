CREATE TABLE "template_reviews" (
	"wam_id" text PRIMARY KEY NOT NULL,
	"status" text,
	"reason" text,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "template_reviews" ("wam_id", "status", "reason", "updated_at")
SELECT DISTINCT ON ("wam_id") "wam_id", "status", "reason", "updated_at"
  FROM "templates"
 WHERE "wam_id" IS NOT NULL AND "status" IN ('approved', 'rejected', 'paused', 'disabled')
 ORDER BY "wam_id", "updated_at" DESC
ON CONFLICT ("wam_id") DO NOTHING;
