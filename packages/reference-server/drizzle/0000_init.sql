CREATE TABLE "campaigns" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"seq" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"schedule_type" text NOT NULL,
	"schedule" timestamp (3) with time zone NOT NULL,
	"days" jsonb,
	"template_payload" jsonb NOT NULL,
	"end_date" date,
	"next_run_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "campaigns_company_name_unique" UNIQUE("company_uuid","name"),
	CONSTRAINT "campaigns_company_seq_unique" UNIQUE("company_uuid","seq")
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"uuid" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"name" text NOT NULL,
	"timezone" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"campaign_seq" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "companies_company_id_unique" UNIQUE("company_id")
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"phone_number" text NOT NULL,
	"name" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text,
	"email" text,
	"source" text NOT NULL,
	"orders_count" integer NOT NULL,
	"orders_amount" numeric NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "customers_company_phone_unique" UNIQUE("company_uuid","phone_number")
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"endpoint_id" text COLLATE "C" NOT NULL,
	"event_id" text COLLATE "C" NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"attempts" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"campaign_id" text COLLATE "C" NOT NULL,
	"customer_id" text COLLATE "C" NOT NULL,
	"phone_number" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"run_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"company_id" text NOT NULL,
	"company_order_id" text NOT NULL,
	"total_amount" numeric NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text,
	"phone_number" text NOT NULL,
	"email" text,
	"postal_code" text NOT NULL,
	"street_address_1" text NOT NULL,
	"street_address_2" text,
	"city" text,
	"state" text,
	"special_instructions" text,
	"products" jsonb NOT NULL,
	"billing_street_address_1" text,
	"billing_street_address_2" text,
	"billing_city" text,
	"billing_state" text,
	"billing_postal_code" text,
	"company_order_date" date,
	"company_order_due_date" date,
	"company_order_delivery_status" text,
	"company_order_payment_reference" text,
	"company_order_status" text,
	"company_order_description" text,
	"company_order_other_attributes_1" jsonb,
	"company_order_other_attributes_2" jsonb,
	"version" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "orders_company_order_unique" UNIQUE("company_uuid","company_order_id")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"template_name" text NOT NULL,
	"phone_number" text NOT NULL,
	"wam_id" text,
	"status" text NOT NULL,
	"reason" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "templates_company_name_phone_unique" UNIQUE("company_uuid","template_name","phone_number")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"company_uuid" text COLLATE "C" NOT NULL,
	"url" text NOT NULL,
	"description" text NOT NULL,
	"events" jsonb NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"secret" text NOT NULL,
	"previous_secrets" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_company_created_idx" ON "customers" USING btree ("company_uuid","created_at","id");--> statement-breakpoint
CREATE INDEX "deliveries_status_next_idx" ON "deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "deliveries_endpoint_created_idx" ON "deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_company_phone_idx" ON "orders" USING btree ("company_uuid","phone_number");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_company_created_idx" ON "webhook_endpoints" USING btree ("company_uuid","created_at","id");