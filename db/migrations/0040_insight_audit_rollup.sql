-- The insight audit's rollup (issue 33 item 4, docs/decisions/042): what the invoice audit found
-- and won back per payable carrier invoice, customer, site, carrier, service and lane, so the audit
-- tab reads a few rows per invoice instead of every line of every invoice in the period (a million
-- lines: 3.6 s a page). Kept up to date as insight_daily is: every change to what a figure reads (a
-- line, its reconciliation, a note on it, its invoice's date, a credit on a later invoice) appends
-- the invoice it touches to insight_audit_dirty, and the refresher recomputes those invoices
-- (app/modules/insight/audit-rollup.server.ts). Marks are appended, never merged (see 0037).
CREATE TABLE "insight_audit" (
	"invoice_id" integer NOT NULL,
	"day" date NOT NULL,
	"customer_id" integer,
	"site_id" integer,
	"carrier_id" integer,
	"service_id" integer,
	"from_region" text NOT NULL,
	"to_region" text NOT NULL,
	"lines" integer NOT NULL,
	"matched" integer NOT NULL,
	"discrepancy_found" numeric(16, 2) NOT NULL,
	"disputed" numeric(16, 2) NOT NULL,
	"recovered" numeric(16, 2) NOT NULL,
	"duplicates" integer NOT NULL,
	"duplicates_amount" numeric(16, 2) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_audit_invoice_idx" ON "insight_audit" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "insight_audit_customer_day_idx" ON "insight_audit" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_audit_day_idx" ON "insight_audit" USING btree ("day");--> statement-breakpoint
-- the overcharge the comparison did not pass, per reason (a line with two reasons counts under each)
CREATE TABLE "insight_audit_reasons" (
	"invoice_id" integer NOT NULL,
	"day" date NOT NULL,
	"customer_id" integer,
	"site_id" integer,
	"carrier_id" integer,
	"service_id" integer,
	"from_region" text NOT NULL,
	"to_region" text NOT NULL,
	"reason" text NOT NULL,
	"lines" integer NOT NULL,
	"amount" numeric(16, 2) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_invoice_idx" ON "insight_audit_reasons" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_customer_day_idx" ON "insight_audit_reasons" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_day_idx" ON "insight_audit_reasons" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_audit_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL
);
--> statement-breakpoint
-- A line's own invoice, and for a credit (a negative line) the invoices of the earlier lines of the
-- same carrier and consignment number on other invoices: their "recovered" counts it. One function
-- serves inserts and deletes: each trigger names its own transition table changed_rows.
CREATE FUNCTION "insight_audit_lines_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT x.invoice_id FROM (
    SELECT c.invoice_id FROM changed_rows c
    UNION ALL
    SELECT l.invoice_id FROM changed_rows c
    JOIN invoice_details l ON l.consignment_number = c.consignment_number AND l.carrier_id = c.carrier_id AND l.id < c.id AND l.invoice_id <> c.invoice_id
    WHERE c.total_cost < 0
  ) x ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- an update marks only when something a figure reads changed (both the line as it was and as it
-- is): a state move of a whole invoice (allocated, exported, invoiced) marks nothing
CREATE FUNCTION "insight_audit_lines_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  WITH changed AS (
    SELECT v.* FROM old_rows o JOIN new_rows n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES (o.id, o.invoice_id, o.carrier_id, o.consignment_number, o.total_cost),
                               (n.id, n.invoice_id, n.carrier_id, n.consignment_number, n.total_cost)) AS v(id, invoice_id, carrier_id, consignment_number, total_cost)
    WHERE (o.invoice_id, o.customer_id, o.site_id, o.carrier_id, o.service_id, o.sender_region, o.receiver_region, o.consignment_number, o.total_cost, o.duplicate_of_detail_id)
      IS DISTINCT FROM
          (n.invoice_id, n.customer_id, n.site_id, n.carrier_id, n.service_id, n.sender_region, n.receiver_region, n.consignment_number, n.total_cost, n.duplicate_of_detail_id)
  )
  SELECT DISTINCT x.invoice_id FROM (
    SELECT c.invoice_id FROM changed c
    UNION ALL
    SELECT l.invoice_id FROM changed c
    JOIN invoice_details l ON l.consignment_number = c.consignment_number AND l.carrier_id = c.carrier_id AND l.id < c.id AND l.invoice_id <> c.invoice_id
    WHERE c.total_cost < 0
  ) x ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_reconciliations_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT c.invoice_id FROM changed_rows c WHERE c.invoice_id IS NOT NULL ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_reconciliations_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT n.invoice_id FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE n.invoice_id IS NOT NULL
    AND (o.state, o.discrepancy_amount, o.reason_categories, o.invoice_id) IS DISTINCT FROM (n.state, n.discrepancy_amount, n.reason_categories, n.invoice_id)
  ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
-- a note is a person's decision: the line is no longer "matched automatically"
CREATE FUNCTION "insight_audit_notes_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT r.invoice_id FROM changed_rows c JOIN reconciliations r ON r.id = c.reconciliation_id WHERE r.invoice_id IS NOT NULL ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_invoices_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE (o.invoice_date, o.accounting_type) IS DISTINCT FROM (n.invoice_date, n.accounting_type) ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "insight_audit_lines_inserted" AFTER INSERT ON "invoice_details" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_lines_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_lines_updated" AFTER UPDATE ON "invoice_details" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_lines_updated"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_lines_deleted" AFTER DELETE ON "invoice_details" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_lines_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_reconciliations_inserted" AFTER INSERT ON "reconciliations" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_reconciliations_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_reconciliations_updated" AFTER UPDATE ON "reconciliations" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_reconciliations_updated"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_reconciliations_deleted" AFTER DELETE ON "reconciliations" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_reconciliations_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_notes_inserted" AFTER INSERT ON "reconciliation_notes" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_notes_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_notes_deleted" AFTER DELETE ON "reconciliation_notes" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_notes_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_invoices_updated" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_invoices_updated"();--> statement-breakpoint
-- the payable invoices already there, once
INSERT INTO insight_audit_dirty (invoice_id) SELECT id FROM invoices WHERE accounting_type = 'payable' ORDER BY 1;
