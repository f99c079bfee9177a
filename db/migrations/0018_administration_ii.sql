CREATE TABLE "booking_consignments" (
	"booking_id" integer NOT NULL,
	"consignment_id" integer NOT NULL,
	CONSTRAINT "booking_consignments_booking_id_consignment_id_pk" PRIMARY KEY("booking_id","consignment_id")
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"carrier_id" integer NOT NULL,
	"service_id" integer,
	"booking_number" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"booking_date" date NOT NULL,
	"ready_at" text NOT NULL,
	"closing_at" text NOT NULL,
	"total_consignments" integer DEFAULT 0 NOT NULL,
	"total_items" integer DEFAULT 0 NOT NULL,
	"total_weight" numeric(14, 3) DEFAULT '0' NOT NULL,
	"total_volume" numeric(14, 4) DEFAULT '0' NOT NULL,
	"hazardous_goods" boolean DEFAULT false NOT NULL,
	"additional_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"special_requirements" text,
	"booking_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bulk_upload_references" (
	"customer_id" integer NOT NULL,
	"reference" text NOT NULL,
	"consignment_id" integer NOT NULL,
	"bulk_upload_id" integer,
	CONSTRAINT "bulk_upload_references_customer_id_reference_pk" PRIMARY KEY("customer_id","reference")
);
--> statement-breakpoint
CREATE TABLE "bulk_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"user_id" integer,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"fingerprint" text NOT NULL,
	"job_id" uuid,
	"total_lines" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounting_connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"business_id" text,
	"business_name" text,
	"access_token" text,
	"refresh_token" text,
	"expires_at" timestamp with time zone,
	"pending_state" text,
	"connected_by" integer,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brandings" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"country" text NOT NULL,
	"environment" text NOT NULL,
	"logo_image" "bytea",
	"logo_type" text,
	"bg_image" "bytea",
	"bg_type" text,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulated_accounting" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"item_type_id" integer,
	"length" numeric(10, 2),
	"width" numeric(10, 2),
	"height" numeric(10, 2),
	"weight" numeric(10, 3)
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"cart_type" text NOT NULL,
	"rate_presentation" text DEFAULT 'full_list' NOT NULL,
	"site_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"api_key_hash" text NOT NULL,
	"api_key_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking_consignments" ADD CONSTRAINT "booking_consignments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_consignments" ADD CONSTRAINT "booking_consignments_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_references" ADD CONSTRAINT "bulk_upload_references_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_references" ADD CONSTRAINT "bulk_upload_references_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_upload_references" ADD CONSTRAINT "bulk_upload_references_bulk_upload_id_bulk_uploads_id_fk" FOREIGN KEY ("bulk_upload_id") REFERENCES "public"."bulk_uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_connections" ADD CONSTRAINT "accounting_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_products" ADD CONSTRAINT "store_products_item_type_id_item_types_id_fk" FOREIGN KEY ("item_type_id") REFERENCES "public"."item_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_consignments_consignment_key" ON "booking_consignments" USING btree ("consignment_id");--> statement-breakpoint
CREATE INDEX "bookings_customer_date_idx" ON "bookings" USING btree ("customer_id","booking_date","id");--> statement-breakpoint
CREATE INDEX "bulk_upload_references_consignment_idx" ON "bulk_upload_references" USING btree ("consignment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_uploads_customer_kind_fingerprint_key" ON "bulk_uploads" USING btree ("customer_id","kind","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_connections_provider_key" ON "accounting_connections" USING btree ("provider");--> statement-breakpoint
CREATE UNIQUE INDEX "brandings_scope_key" ON "brandings" USING btree ("customer_id",coalesce("site_id", 0),"country","environment");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_accounting_kind_key" ON "simulated_accounting" USING btree ("kind","key");--> statement-breakpoint
CREATE UNIQUE INDEX "store_products_store_sku_key" ON "store_products" USING btree ("store_id",lower("sku"));--> statement-breakpoint
CREATE UNIQUE INDEX "stores_external_id_key" ON "stores" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "stores_customer_idx" ON "stores" USING btree ("customer_id");