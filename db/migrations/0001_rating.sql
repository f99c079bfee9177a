CREATE TABLE "dangerous_goods_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"un_number" text NOT NULL,
	"proper_shipping_name" text NOT NULL,
	"hazard_class" text,
	"sub_risk" text,
	"packing_group" text,
	"nos" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fuel_levies" (
	"id" serial PRIMARY KEY NOT NULL,
	"carrier_id" integer NOT NULL,
	"percentage" numeric(7, 3) NOT NULL,
	"effective_from" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "localities" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"locality" text NOT NULL,
	"sublocality" text,
	"postcode" text NOT NULL,
	"region" text,
	"latitude" double precision,
	"longitude" double precision,
	"charge_zone" text,
	"remote_tier" integer DEFAULT 0 NOT NULL,
	"po_box" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_lanes" (
	"id" serial PRIMARY KEY NOT NULL,
	"carrier_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"rate_code" text NOT NULL,
	"from_zone" text NOT NULL,
	"to_zone" text NOT NULL,
	"basic" numeric(12, 4) DEFAULT '0' NOT NULL,
	"per_kg" numeric(12, 4) DEFAULT '0' NOT NULL,
	"per_item" numeric(12, 4) DEFAULT '0' NOT NULL,
	"minimum" numeric(12, 4) DEFAULT '0' NOT NULL,
	"transit_days" integer DEFAULT 1 NOT NULL,
	"cubic_factor" numeric(10, 3) DEFAULT '250' NOT NULL,
	"som" text DEFAULT 'metric' NOT NULL,
	"effective_from" date NOT NULL,
	"filename" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surcharge_sets" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"carrier_id" integer NOT NULL,
	"service_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"site_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dg_surcharge" jsonb,
	"return_surcharge" jsonb,
	"manual_handling_surcharge" jsonb,
	"warranty_surcharge" jsonb,
	"residential_surcharge" jsonb,
	"oversized_surcharges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"remote_surcharges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zones" (
	"id" serial PRIMARY KEY NOT NULL,
	"carrier_id" integer NOT NULL,
	"customer_id" integer,
	"site_id" integer,
	"service_id" integer,
	"country" text DEFAULT 'AUSTRALIA' NOT NULL,
	"postcode" text NOT NULL,
	"locality" text,
	"sublocality" text,
	"region" text,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fuel_levies" ADD CONSTRAINT "fuel_levies_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_lanes" ADD CONSTRAINT "rate_lanes_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_lanes" ADD CONSTRAINT "rate_lanes_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surcharge_sets" ADD CONSTRAINT "surcharge_sets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surcharge_sets" ADD CONSTRAINT "surcharge_sets_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zones" ADD CONSTRAINT "zones_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dangerous_goods_types_un_idx" ON "dangerous_goods_types" USING btree ("un_number");--> statement-breakpoint
CREATE INDEX "dangerous_goods_types_name_idx" ON "dangerous_goods_types" USING btree (lower("proper_shipping_name") text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "fuel_levies_carrier_date_key" ON "fuel_levies" USING btree ("carrier_id","effective_from");--> statement-breakpoint
CREATE INDEX "localities_country_name_idx" ON "localities" USING btree ("country",lower("locality") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "localities_country_postcode_idx" ON "localities" USING btree ("country","postcode");--> statement-breakpoint
CREATE UNIQUE INDEX "localities_place_key" ON "localities" USING btree ("country","postcode",lower("locality"),coalesce(lower("sublocality"), ''));--> statement-breakpoint
CREATE UNIQUE INDEX "rate_lanes_key" ON "rate_lanes" USING btree ("service_id","rate_code","from_zone","to_zone","effective_from");--> statement-breakpoint
CREATE INDEX "surcharge_sets_customer_carrier_idx" ON "surcharge_sets" USING btree ("customer_id","carrier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "surcharge_sets_customer_code_key" ON "surcharge_sets" USING btree ("customer_id",lower("code"));--> statement-breakpoint
CREATE INDEX "zones_lookup_idx" ON "zones" USING btree ("carrier_id","country","postcode");