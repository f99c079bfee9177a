CREATE TABLE "billed_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"consignment_key" text NOT NULL,
	"category" text NOT NULL,
	"invoice_detail_id" integer NOT NULL,
	"rebill" boolean DEFAULT false NOT NULL,
	"note" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliations" DROP CONSTRAINT "reconciliations_reasons_known";--> statement-breakpoint
DROP INDEX "invoice_details_consignment_number_idx";--> statement-breakpoint
ALTER TABLE "invoice_details" ADD COLUMN "duplicate_of_detail_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "duplicate_of_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "billed_charges" ADD CONSTRAINT "billed_charges_invoice_detail_id_invoice_details_id_fk" FOREIGN KEY ("invoice_detail_id") REFERENCES "public"."invoice_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billed_charges" ADD CONSTRAINT "billed_charges_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billed_charges_once_key" ON "billed_charges" USING btree ("consignment_key","category") WHERE not rebill;--> statement-breakpoint
CREATE INDEX "billed_charges_detail_idx" ON "billed_charges" USING btree ("invoice_detail_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_duplicate_of_invoice_id_invoices_id_fk" FOREIGN KEY ("duplicate_of_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_details_consignment_number_idx" ON "invoice_details" USING btree ("consignment_number","carrier_id");--> statement-breakpoint
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_reasons_known" CHECK ("reconciliations"."reason_categories" <@ array['duplicate','zone','incorrect_rate','failed_to_rate','buy_rate_missing','service','surcharge','check_wt_vol']::text[]);--> statement-breakpoint
-- What customer invoices already bill (decision 021): each consignment's charge of a category,
-- the first receivable line to bill it the one that counts; any later line that billed it again
-- before this rule existed is kept, marked as a rebill so the rule stands over what comes next.
INSERT INTO billed_charges (consignment_key, category, invoice_detail_id, rebill, note, created_at)
SELECT k.key, k.category, k.detail_id, k.n > 1, CASE WHEN k.n > 1 THEN 'Billed again before migration 0024' END, k.created_at
FROM (
  SELECT x.key, x.category, x.detail_id, x.created_at, row_number() OVER (PARTITION BY x.key, x.category ORDER BY x.detail_id) AS n
  FROM (
    SELECT DISTINCT
      CASE WHEN d.consignment_id IS NOT NULL THEN 'c' || d.consignment_id ELSE 'n' || coalesce(d.carrier_id::text, '') || ':' || upper(d.consignment_number) END AS key,
      c.category, d.id AS detail_id, d.created_at
    FROM invoice_details d
    JOIN invoices i ON i.id = d.invoice_id AND i.accounting_type = 'receivable'
    JOIN invoice_costs c ON c.invoice_detail_id = d.id AND c.amount > 0 AND c.category <> 'gst'
    WHERE d.consignment_id IS NOT NULL OR d.consignment_number IS NOT NULL
  ) x
) k;
