ALTER TABLE "consignments" ADD COLUMN "cheapest_carrier_rate_excl_gst" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "errors" jsonb DEFAULT '{}'::jsonb NOT NULL;