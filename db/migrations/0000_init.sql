CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"branding_prefix" text,
	"test_account" boolean DEFAULT false NOT NULL,
	"test_account_previous" boolean DEFAULT false NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"delete_consignments" boolean DEFAULT false NOT NULL,
	"offers_customer_collect" boolean DEFAULT false NOT NULL,
	"receivers_carrier_permitted" boolean DEFAULT false NOT NULL,
	"despatch_enabled" boolean DEFAULT true NOT NULL,
	"customer_despatch_enabled" boolean DEFAULT true NOT NULL,
	"tracking_despatch_enabled" boolean DEFAULT false NOT NULL,
	"merging_enabled" boolean DEFAULT false NOT NULL,
	"dg_merging_enabled" boolean DEFAULT false NOT NULL,
	"merging_custom_reference_enabled" boolean DEFAULT false NOT NULL,
	"custom_consignment_reference_type" text DEFAULT 'text' NOT NULL,
	"custom_consignment_reference_label" text,
	"special_instructions" text,
	"print_declarations" boolean DEFAULT false NOT NULL,
	"support_email" text,
	"billing_address" jsonb,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"address_type" text DEFAULT 'business' NOT NULL,
	"address_line_1" text,
	"address_line_2" text,
	"address_line_3" text,
	"address_line_4" text,
	"sublocality" text,
	"locality" text,
	"region" text,
	"postcode" text,
	"country" text DEFAULT 'AUSTRALIA' NOT NULL,
	"phone" text,
	"email" text,
	"som" text DEFAULT 'metric' NOT NULL,
	"opening_time" text,
	"closing_time" text,
	"timezone" text,
	"despatch_enabled" boolean DEFAULT true NOT NULL,
	"dg_contact_name" text,
	"dg_contact_phone" text,
	"cs_phone_number" text,
	"chep_account" text,
	"loscam_account" text,
	"billing_address" jsonb,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"carrier_id" integer NOT NULL,
	"service_id" integer,
	"account_number" text NOT NULL,
	"carrier_customer_reference" text,
	"support_email" text,
	"booking_email" text,
	"managed_account" boolean DEFAULT false NOT NULL,
	"consignment_number_prefix" text DEFAULT '' NOT NULL,
	"consignment_number_digits" integer DEFAULT 8 NOT NULL,
	"consignment_range_start" bigint NOT NULL,
	"consignment_range_end" bigint NOT NULL,
	"consignment_current" bigint,
	"manifest_number_prefix" text DEFAULT '' NOT NULL,
	"manifest_number_digits" integer DEFAULT 6 NOT NULL,
	"manifest_range_start" bigint NOT NULL,
	"manifest_range_end" bigint NOT NULL,
	"manifest_current" bigint,
	"sscc_prefix" text,
	"sscc_digits" integer DEFAULT 9 NOT NULL,
	"sscc_range_start" bigint,
	"sscc_range_end" bigint,
	"sscc_current" bigint,
	"pickup_at" boolean DEFAULT false NOT NULL,
	"deliver_by" boolean DEFAULT false NOT NULL,
	"deliver_at" boolean DEFAULT false NOT NULL,
	"climbing_count_enabled" boolean DEFAULT false NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" text,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carriers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"web_url" text,
	"default_email" text,
	"note" text,
	"myob_uid" text,
	"generic" boolean DEFAULT true NOT NULL,
	"app_carrier" boolean DEFAULT false NOT NULL,
	"pay_on_arrival" boolean DEFAULT false NOT NULL,
	"print_consignments" boolean DEFAULT false NOT NULL,
	"manifest_barcode" boolean DEFAULT false NOT NULL,
	"auto_book" boolean DEFAULT false NOT NULL,
	"api_track_and_trace" boolean DEFAULT false NOT NULL,
	"gs1_compliant" boolean DEFAULT true NOT NULL,
	"pickup_at" boolean DEFAULT false NOT NULL,
	"deliver_by" boolean DEFAULT false NOT NULL,
	"deliver_at" boolean DEFAULT false NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "item_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"name" text DEFAULT 'Carton' NOT NULL,
	"description" text NOT NULL,
	"labels" integer DEFAULT 1 NOT NULL,
	"pallet_vendor" integer DEFAULT 0 NOT NULL,
	"som" text DEFAULT 'metric' NOT NULL,
	"length" numeric(10, 2),
	"width" numeric(10, 2),
	"height" numeric(10, 2),
	"weight" numeric(10, 3),
	"increments" numeric(10, 3) DEFAULT '1.0',
	"has_dangerous_goods" boolean DEFAULT false NOT NULL,
	"preselected_dg_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" serial PRIMARY KEY NOT NULL,
	"carrier_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'general' NOT NULL,
	"support_email" text,
	"route_code" text,
	"service_name_by_carrier" text,
	"service_code_by_carrier" text,
	"group" text,
	"pay_on_arrival" boolean DEFAULT false NOT NULL,
	"dangerous_goods_prohibited" boolean DEFAULT false NOT NULL,
	"pickup_at" boolean DEFAULT false NOT NULL,
	"deliver_by" boolean DEFAULT false NOT NULL,
	"deliver_at" boolean DEFAULT false NOT NULL,
	"merging_enabled" boolean DEFAULT true NOT NULL,
	"eligible_for_outbounds" boolean DEFAULT true NOT NULL,
	"eligible_for_returns" boolean DEFAULT true NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_services" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"carrier_account_id" integer,
	"rate_code" text,
	"markup" numeric(8, 4) DEFAULT '0' NOT NULL,
	"surcharges_markup" numeric(8, 4) DEFAULT '0' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"remember_me" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "sign_in_audits" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"user_id" integer,
	"success" boolean NOT NULL,
	"reason" text,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sites" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "user_sites_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"current_customer_id" integer,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"phone_number" text,
	"role" text DEFAULT 'despatcher' NOT NULL,
	"super_despatcher" boolean DEFAULT false NOT NULL,
	"despatcher_only" boolean DEFAULT false NOT NULL,
	"password_hash" text NOT NULL,
	"password_reset_required" boolean DEFAULT false NOT NULL,
	"authentication_token" text,
	"uuid" text DEFAULT gen_random_uuid()::text NOT NULL,
	"zendesk_id" text,
	"locked_at" timestamp with time zone,
	"disabled" boolean DEFAULT false NOT NULL,
	"can_book" boolean DEFAULT false NOT NULL,
	"can_edit_recipients" boolean DEFAULT false NOT NULL,
	"can_export" boolean DEFAULT false NOT NULL,
	"can_reconcile" boolean DEFAULT false NOT NULL,
	"can_bulkupload" boolean DEFAULT false NOT NULL,
	"can_bulkquote" boolean DEFAULT false NOT NULL,
	"default_site_id" integer,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"is_recipient" boolean DEFAULT true NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"address_line_1" text,
	"address_line_2" text,
	"address_line_3" text,
	"address_line_4" text,
	"sublocality" text,
	"locality" text,
	"region" text,
	"postcode" text,
	"country" text DEFAULT 'AUSTRALIA' NOT NULL,
	"phone" text,
	"email" text,
	"timezone" text,
	"address_type" text DEFAULT 'business' NOT NULL,
	"special_instructions" text,
	"som" text DEFAULT 'metric' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consignment_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"consignment_id" integer NOT NULL,
	"item_id" integer,
	"version" integer NOT NULL,
	"field" text NOT NULL,
	"from_value" text,
	"to_value" text,
	"changed_by" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consignment_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"consignment_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"quantity" integer NOT NULL,
	"item_type_id" integer,
	"item_type_description" text,
	"reference" text,
	"length" numeric(10, 2),
	"width" numeric(10, 2),
	"height" numeric(10, 2),
	"weight_in_uom" numeric(12, 3),
	"total_volume" numeric(14, 4),
	"consolidated" boolean DEFAULT false NOT NULL,
	"ssccs" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"return_type" text,
	"is_quote" boolean DEFAULT false NOT NULL,
	"has_quote_origin" boolean DEFAULT false NOT NULL,
	"consignment_number" text,
	"reference" text,
	"custom_reference" text,
	"despatch_date" date,
	"pickup_at" text,
	"deliver_by" text,
	"deliver_at" text,
	"sender_address_id" integer,
	"receiver_address_id" integer,
	"special_instructions" text,
	"special_requirements" text,
	"account_payable" text DEFAULT 'sender' NOT NULL,
	"charge_account" text,
	"service_id" integer,
	"carrier_account_id" integer,
	"service_rate" numeric(12, 2),
	"service_rate_excl_gst" numeric(12, 2),
	"estimated_delivery_date" date,
	"poa_carrier" boolean DEFAULT false NOT NULL,
	"preselected_carrier_service" text,
	"preselected_service_type" text,
	"rule_based_service" text,
	"cheapest_carrier_service" text,
	"cheapest_carrier_rate" numeric(12, 2),
	"carrier_selection_by" integer,
	"rating_detail" jsonb,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"manifest_id" integer,
	"number_of_labels" integer DEFAULT 0 NOT NULL,
	"labels_printed_at" timestamp with time zone,
	"print_connote" boolean DEFAULT false NOT NULL,
	"print_dangerous_goods_documents" boolean DEFAULT false NOT NULL,
	"auto_delivered" boolean DEFAULT false NOT NULL,
	"cancellation_allowed_date" timestamp with time zone,
	"return_info" jsonb,
	"active" boolean DEFAULT true NOT NULL,
	"deleted_by" integer,
	"merged_into_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dangerous_goods_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"un_number" text NOT NULL,
	"proper_shipping_name" text NOT NULL,
	"technical_name" text,
	"hazard_class" text,
	"packing_group" text,
	"sub_hazard" text,
	"weight_in_uom" numeric(12, 3),
	"nos" boolean DEFAULT false NOT NULL,
	"som" text DEFAULT 'metric' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manifests" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"carrier_account_id" integer NOT NULL,
	"number" text NOT NULL,
	"despatch_time" timestamp with time zone,
	"failed_despatch" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"print_connote" boolean DEFAULT false NOT NULL,
	"print_dangerous_goods_documents" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_receipts" (
	"notice_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"seen" boolean DEFAULT false NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_receipts_notice_id_user_id_pk" PRIMARY KEY("notice_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"header" text NOT NULL,
	"content" text NOT NULL,
	"publish_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"customer_id" integer,
	"user_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"pct_complete" integer DEFAULT 0 NOT NULL,
	"message" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD CONSTRAINT "carrier_accounts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD CONSTRAINT "carrier_accounts_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD CONSTRAINT "carrier_accounts_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_types" ADD CONSTRAINT "item_types_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_types" ADD CONSTRAINT "item_types_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_services" ADD CONSTRAINT "site_services_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_services" ADD CONSTRAINT "site_services_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_services" ADD CONSTRAINT "site_services_carrier_account_id_carrier_accounts_id_fk" FOREIGN KEY ("carrier_account_id") REFERENCES "public"."carrier_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_audits" ADD CONSTRAINT "sign_in_audits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sites" ADD CONSTRAINT "user_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_current_customer_id_customers_id_fk" FOREIGN KEY ("current_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_default_site_id_sites_id_fk" FOREIGN KEY ("default_site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "addresses" ADD CONSTRAINT "addresses_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_changes" ADD CONSTRAINT "consignment_changes_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_changes" ADD CONSTRAINT "consignment_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_items" ADD CONSTRAINT "consignment_items_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignment_items" ADD CONSTRAINT "consignment_items_item_type_id_item_types_id_fk" FOREIGN KEY ("item_type_id") REFERENCES "public"."item_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_sender_address_id_addresses_id_fk" FOREIGN KEY ("sender_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_receiver_address_id_addresses_id_fk" FOREIGN KEY ("receiver_address_id") REFERENCES "public"."addresses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_carrier_account_id_carrier_accounts_id_fk" FOREIGN KEY ("carrier_account_id") REFERENCES "public"."carrier_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_carrier_selection_by_users_id_fk" FOREIGN KEY ("carrier_selection_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_manifest_id_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "public"."manifests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consignments" ADD CONSTRAINT "consignments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dangerous_goods_items" ADD CONSTRAINT "dangerous_goods_items_item_id_consignment_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."consignment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_carrier_account_id_carrier_accounts_id_fk" FOREIGN KEY ("carrier_account_id") REFERENCES "public"."carrier_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_receipts" ADD CONSTRAINT "notice_receipts_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_receipts" ADD CONSTRAINT "notice_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_code_key" ON "customers" USING btree (lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "sites_customer_code_key" ON "sites" USING btree ("customer_id",lower("code"));--> statement-breakpoint
CREATE INDEX "sites_customer_idx" ON "sites" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "carrier_accounts_site_idx" ON "carrier_accounts" USING btree ("site_id","carrier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "carriers_code_key" ON "carriers" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "item_types_customer_idx" ON "item_types" USING btree ("customer_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "services_carrier_code_key" ON "services" USING btree ("carrier_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "site_services_site_service_key" ON "site_services" USING btree ("site_id","service_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_expires_idx" ON "password_reset_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_audits_at_idx" ON "sign_in_audits" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_authentication_token_key" ON "users" USING btree ("authentication_token");--> statement-breakpoint
CREATE INDEX "users_customer_idx" ON "users" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "addresses_customer_name_idx" ON "addresses" USING btree ("customer_id","is_recipient",lower("name"));--> statement-breakpoint
CREATE INDEX "consignment_changes_consignment_idx" ON "consignment_changes" USING btree ("consignment_id","version");--> statement-breakpoint
CREATE INDEX "consignment_items_consignment_idx" ON "consignment_items" USING btree ("consignment_id","position");--> statement-breakpoint
CREATE INDEX "consignments_customer_date_idx" ON "consignments" USING btree ("customer_id","despatch_date","id");--> statement-breakpoint
CREATE INDEX "consignments_site_date_idx" ON "consignments" USING btree ("site_id","despatch_date","id");--> statement-breakpoint
CREATE INDEX "consignments_number_idx" ON "consignments" USING btree ("consignment_number");--> statement-breakpoint
CREATE INDEX "consignments_manifest_idx" ON "consignments" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "dangerous_goods_items_item_idx" ON "dangerous_goods_items" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "manifests_customer_time_idx" ON "manifests" USING btree ("customer_id","despatch_time");--> statement-breakpoint
CREATE UNIQUE INDEX "manifests_account_number_key" ON "manifests" USING btree ("carrier_account_id","number");--> statement-breakpoint
CREATE INDEX "notice_receipts_user_idx" ON "notice_receipts" USING btree ("user_id","seen");--> statement-breakpoint
CREATE INDEX "notices_customer_publish_idx" ON "notices" USING btree ("customer_id","publish_at");--> statement-breakpoint
CREATE INDEX "jobs_user_idx" ON "jobs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_messages_to_idx" ON "mail_messages" USING btree ("to","created_at");