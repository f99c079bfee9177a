CREATE TABLE "allocation_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"carrier_id" integer NOT NULL,
	"customer_id" integer,
	"allocation_model" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb NOT NULL,
	"next_rule_id" integer,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_invoice_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"carrier_id" integer NOT NULL,
	"parser" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_invoice_transformations" (
	"id" serial PRIMARY KEY NOT NULL,
	"config_id" integer NOT NULL,
	"type" text NOT NULL,
	"sequence" integer NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_costs" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_detail_id" integer NOT NULL,
	"category" text NOT NULL,
	"description" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"state" text DEFAULT 'unallocated' NOT NULL,
	"line_number" integer NOT NULL,
	"carrier_id" integer,
	"customer_id" integer,
	"site_id" integer,
	"service_id" integer,
	"unquoted" boolean DEFAULT false NOT NULL,
	"consignment_id" integer,
	"consignment_number" text,
	"sender_name" text,
	"sender_locality" text,
	"sender_postcode" text,
	"sender_region" text,
	"sender_zone" text,
	"sender_country" text,
	"receiver_name" text,
	"receiver_locality" text,
	"receiver_postcode" text,
	"receiver_region" text,
	"receiver_zone" text,
	"account_number" text,
	"parent_account_number" text,
	"payer" text,
	"reference" text,
	"service_description" text,
	"despatch_date" date,
	"total_quantity" integer,
	"total_weight_in_uom" numeric(12, 3),
	"total_charge_weight" numeric(12, 3),
	"total_volume_in_uom_cubed" numeric(12, 4),
	"total_cost" numeric(12, 2) DEFAULT '0' NOT NULL,
	"dangerous_goods" boolean DEFAULT false NOT NULL,
	"allocated_by" text,
	"allocation_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"accounting_type" text NOT NULL,
	"state" text DEFAULT 'unallocated' NOT NULL,
	"invoice_number" text,
	"invoice_date" date,
	"total" numeric(14, 2) DEFAULT '0' NOT NULL,
	"carrier_id" integer,
	"customer_id" integer,
	"config_id" integer,
	"original_file_name" text,
	"original_file_path" text,
	"original_file_type" text,
	"import_job_id" uuid,
	"created_by_id" integer,
	"exported_at" timestamp with time zone,
	"export_info" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "allocation_rules" ADD CONSTRAINT "allocation_rules_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allocation_rules" ADD CONSTRAINT "allocation_rules_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_invoice_configs" ADD CONSTRAINT "carrier_invoice_configs_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_invoice_transformations" ADD CONSTRAINT "carrier_invoice_transformations_config_id_carrier_invoice_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."carrier_invoice_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_costs" ADD CONSTRAINT "invoice_costs_invoice_detail_id_invoice_details_id_fk" FOREIGN KEY ("invoice_detail_id") REFERENCES "public"."invoice_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_details" ADD CONSTRAINT "invoice_details_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_config_id_carrier_invoice_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."carrier_invoice_configs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_import_job_id_jobs_id_fk" FOREIGN KEY ("import_job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allocation_rules_carrier_idx" ON "allocation_rules" USING btree ("carrier_id","allocation_model");--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_invoice_configs_name_key" ON "carrier_invoice_configs" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "carrier_invoice_transformations_config_idx" ON "carrier_invoice_transformations" USING btree ("config_id","sequence");--> statement-breakpoint
CREATE INDEX "invoice_costs_detail_idx" ON "invoice_costs" USING btree ("invoice_detail_id");--> statement-breakpoint
CREATE INDEX "invoice_details_invoice_idx" ON "invoice_details" USING btree ("invoice_id","line_number");--> statement-breakpoint
CREATE INDEX "invoice_details_state_idx" ON "invoice_details" USING btree ("state");--> statement-breakpoint
CREATE INDEX "invoice_details_consignment_number_idx" ON "invoice_details" USING btree ("consignment_number");--> statement-breakpoint
CREATE INDEX "invoice_details_customer_idx" ON "invoice_details" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_payable_number_key" ON "invoices" USING btree ("carrier_id",lower("invoice_number")) WHERE accounting_type = 'payable';--> statement-breakpoint
CREATE INDEX "invoices_date_idx" ON "invoices" USING btree ("accounting_type","invoice_date");