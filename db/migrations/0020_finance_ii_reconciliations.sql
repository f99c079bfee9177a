CREATE TABLE "reconciliation_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"reconciliation_id" integer NOT NULL,
	"user_id" integer,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_detail_id" integer NOT NULL,
	"consignment_id" integer,
	"customer_id" integer,
	"carrier_id" integer,
	"state" text DEFAULT 'reconciling' NOT NULL,
	"reason_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"rated_buy" numeric(12, 2) DEFAULT '0' NOT NULL,
	"rated_sell" numeric(12, 2) DEFAULT '0' NOT NULL,
	"invoiced" numeric(12, 2) DEFAULT '0' NOT NULL,
	"discrepancy_amount" numeric(12, 2) DEFAULT '0' NOT NULL,
	"margin" numeric(12, 2) DEFAULT '0' NOT NULL,
	"margin_percent" numeric(8, 2),
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rerate_required" boolean DEFAULT false NOT NULL,
	"rerate_status" text,
	"version" integer DEFAULT 1 NOT NULL,
	"reconciled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliations_reasons_known" CHECK ("reconciliations"."reason_categories" <@ array['zone','incorrect_rate','failed_to_rate','buy_rate_missing','service','surcharge','check_wt_vol']::text[])
);
--> statement-breakpoint
ALTER TABLE "reconciliation_notes" ADD CONSTRAINT "reconciliation_notes_reconciliation_id_reconciliations_id_fk" FOREIGN KEY ("reconciliation_id") REFERENCES "public"."reconciliations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_notes" ADD CONSTRAINT "reconciliation_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_invoice_detail_id_invoice_details_id_fk" FOREIGN KEY ("invoice_detail_id") REFERENCES "public"."invoice_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_carrier_id_carriers_id_fk" FOREIGN KEY ("carrier_id") REFERENCES "public"."carriers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_notes_reconciliation_idx" ON "reconciliation_notes" USING btree ("reconciliation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliations_detail_idx" ON "reconciliations" USING btree ("invoice_detail_id");--> statement-breakpoint
CREATE INDEX "reconciliations_state_idx" ON "reconciliations" USING btree ("state","carrier_id","customer_id");