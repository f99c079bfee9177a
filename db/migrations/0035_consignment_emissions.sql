-- Emissions per consignment (issue 33 item 1, docs/decisions/041): the figure with every input it
-- was computed from (tonnes, km, mode, factor and its source, circuity, method version), so it can
-- be recomputed when a factor changes and rolled up by carrier and mode. A consignment with no
-- figure has a row with a reason instead. Services say how they travel (road, air or rail), and
-- a carrier may replace the default factor of a mode with its own.
CREATE TABLE "consignment_emissions" (
	"consignment_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"carrier_id" integer,
	"mode" text,
	"kg_co2e" numeric(14, 3),
	"tonnes" numeric(14, 6),
	"weight_basis" text,
	"km" numeric(10, 1),
	"great_circle_km" numeric(10, 1),
	"factor_g_per_tkm" numeric(10, 3),
	"factor_source" text,
	"circuity" numeric(6, 3),
	"method_version" text NOT NULL,
	"reason" text,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consignment_emissions_figure_or_reason" CHECK (("consignment_emissions"."kg_co2e" is null) <> ("consignment_emissions"."reason" is null))
);
--> statement-breakpoint
ALTER TABLE "consignment_emissions" ADD CONSTRAINT "consignment_emissions_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_emissions" ADD CONSTRAINT "consignment_emissions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_emissions" ADD CONSTRAINT "consignment_emissions_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consignment_emissions_carrier_idx" ON "consignment_emissions" USING btree ("carrier_id","mode");--> statement-breakpoint
CREATE INDEX "consignment_emissions_customer_idx" ON "consignment_emissions" USING btree ("customer_id","computed_at");--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "transport_mode" text DEFAULT 'road' NOT NULL;--> statement-breakpoint
UPDATE "services" SET "transport_mode" = 'rail' WHERE "type" = 'rail';--> statement-breakpoint
ALTER TABLE "carriers" ADD COLUMN "emission_factors" jsonb DEFAULT '{}'::jsonb NOT NULL;
