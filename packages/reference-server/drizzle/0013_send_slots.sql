CREATE TABLE "send_slots" (
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"used_at" bigint NOT NULL,
	CONSTRAINT "send_slots_key_slot_pk" PRIMARY KEY("key","slot")
);
