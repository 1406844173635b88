-- Lists are ordered by created_at, then by created_seq: the order rows were made in, numbered by the database.
-- Rows made before this migration are numbered in the order the lists showed them (created_at, then id).
DROP INDEX "customers_company_created_idx";--> statement-breakpoint
DROP INDEX "deliveries_endpoint_created_idx";--> statement-breakpoint
DROP INDEX "events_company_created_idx";--> statement-breakpoint
DROP INDEX "webhook_endpoints_company_created_idx";--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "companies" AS t SET "created_seq" = n.seq FROM (SELECT "uuid", row_number() OVER (ORDER BY "created_at", "uuid") AS seq FROM "companies") AS n WHERE t."uuid" = n."uuid";--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "companies_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"companies_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "companies"), false);--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "customers" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "customers") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "customers_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"customers_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "customers"), false);--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "deliveries" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "deliveries") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "deliveries_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"deliveries_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "deliveries"), false);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "events" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "events") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "events_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"events_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "events"), false);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "orders" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "orders") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "orders_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"orders_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "orders"), false);--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "templates" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "templates") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "templates_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"templates_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "templates"), false);--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "created_seq" bigint;--> statement-breakpoint
UPDATE "webhook_endpoints" AS t SET "created_seq" = n.seq FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS seq FROM "webhook_endpoints") AS n WHERE t."id" = n."id";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "created_seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "created_seq" ADD GENERATED ALWAYS AS IDENTITY (sequence name "webhook_endpoints_created_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('"webhook_endpoints_created_seq_seq"', (SELECT coalesce(max("created_seq"), 0) + 1 FROM "webhook_endpoints"), false);--> statement-breakpoint
CREATE INDEX "customers_company_created_idx" ON "customers" USING btree ("company_uuid","created_at","created_seq");--> statement-breakpoint
CREATE INDEX "deliveries_endpoint_created_idx" ON "deliveries" USING btree ("endpoint_id","created_at","created_seq");--> statement-breakpoint
CREATE INDEX "events_company_created_idx" ON "events" USING btree ("company_uuid","created_at","created_seq");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_company_created_idx" ON "webhook_endpoints" USING btree ("company_uuid","created_at","created_seq");