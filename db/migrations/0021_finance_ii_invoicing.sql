CREATE TABLE "invoice_number_sequences" (
	"name" text PRIMARY KEY NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoicing_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"period" text NOT NULL,
	"day" text,
	"hour" text NOT NULL,
	"time_zone" text NOT NULL,
	"run_date" text,
	"invoice_detail_ids" integer[] NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_job_id" uuid,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"file_name" text NOT NULL,
	"rerate" boolean DEFAULT false NOT NULL,
	"threshold_amount" text,
	"threshold_percentage" text,
	"summary" jsonb,
	"result_path" text,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_details" ADD COLUMN "source_detail_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "subtotal" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "gst" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "billing_address" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "group_key" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "pdf_path" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "emailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "rerate_detail" jsonb;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "rerate_error" text;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "charge_from_consignment" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "preview" jsonb;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "customer_invoice_detail_id" integer;--> statement-breakpoint
ALTER TABLE "invoicing_schedules" ADD CONSTRAINT "invoicing_schedules_last_job_id_jobs_id_fk" FOREIGN KEY ("last_job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoicing_schedules" ADD CONSTRAINT "invoicing_schedules_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_reports" ADD CONSTRAINT "reconciliation_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_reports" ADD CONSTRAINT "reconciliation_reports_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoicing_schedules_next_run_idx" ON "invoicing_schedules" USING btree ("next_run_at");--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_customer_invoice_detail_id_invoice_details_id_fk" FOREIGN KEY ("customer_invoice_detail_id") REFERENCES "public"."invoice_details"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_details_source_key" ON "invoice_details" USING btree ("source_detail_id") WHERE source_detail_id is not null;