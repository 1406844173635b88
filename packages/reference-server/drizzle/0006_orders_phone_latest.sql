DROP INDEX "orders_company_phone_idx";--> statement-breakpoint
CREATE INDEX "orders_company_phone_updated_idx" ON "orders" USING btree ("company_uuid","phone_number","updated_at","id");