CREATE TABLE "company_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"scopes" jsonb NOT NULL,
	"issued_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "company_tokens_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "company_token_cutoffs" (
	"company_uuid" text COLLATE "C" PRIMARY KEY NOT NULL,
	"valid_after" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_tokens" ADD CONSTRAINT "company_tokens_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_token_cutoffs" ADD CONSTRAINT "company_token_cutoffs_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_tokens_company_issued_idx" ON "company_tokens" USING btree ("company_uuid","issued_at","created_seq");