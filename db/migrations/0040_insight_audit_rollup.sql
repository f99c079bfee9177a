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
-- Updates and deletes mark by row triggers before the change, each with a WHEN that lets a row
-- through only when it changes something a figure reads and its invoice is not yet marked in this
-- transaction (the invoices it has marked are listed in a transaction-local setting): an update of
-- 50,000 lines of one invoice calls a function once. Statement triggers with transition tables
-- (as 0037's) copied every updated row twice and nearly doubled a 50,000-line state change, which
-- marks nothing. Marking once a transaction is safe: a transaction's own mark is not visible to the
-- refresher before the transaction's other changes commit with it. (The WHENs spell the test out:
-- a function there is called for every row.)
CREATE FUNCTION "insight_audit_unmarked"("invoice" integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT invoice IS NOT NULL AND strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || invoice || ',') = 0
$$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_mark"("invoice" integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF insight_audit_unmarked(invoice) THEN
    INSERT INTO insight_audit_dirty (invoice_id) VALUES (invoice);
    PERFORM set_config('insight.audit_marked', coalesce(nullif(current_setting('insight.audit_marked', true), ''), ',') || invoice || ',', true);
  END IF;
END $$;--> statement-breakpoint
-- A credit (a negative line) counts in the "recovered" of the earlier lines of the same carrier and
-- consignment number on other invoices: their invoices are marked whenever a credit changes.
CREATE FUNCTION "insight_audit_mark_credited"("line" invoice_details) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF line.total_cost < 0 AND line.consignment_number IS NOT NULL THEN
    INSERT INTO insight_audit_dirty (invoice_id)
    SELECT DISTINCT l.invoice_id FROM invoice_details l
    WHERE l.consignment_number = line.consignment_number AND l.carrier_id = line.carrier_id AND l.id < line.id AND l.invoice_id <> line.invoice_id
    ORDER BY 1;
  END IF;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_line_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM insight_audit_mark(OLD.invoice_id);
  PERFORM insight_audit_mark_credited(OLD);
  IF TG_OP = 'UPDATE' THEN
    PERFORM insight_audit_mark(NEW.invoice_id);
    PERFORM insight_audit_mark_credited(NEW);
    RETURN NEW;
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
-- Inserts mark by a statement trigger: a row trigger before an insert would stop COPY (the invoice
-- import) writing its rows in batches. The new lines' invoices, and the invoices a new credit counts in.
CREATE FUNCTION "insight_audit_lines_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT x.invoice_id FROM (
    SELECT c.invoice_id FROM new_rows c
    UNION ALL
    SELECT l.invoice_id FROM new_rows c
    JOIN invoice_details l ON l.consignment_number = c.consignment_number AND l.carrier_id = c.carrier_id AND l.id < c.id AND l.invoice_id <> c.invoice_id
    WHERE c.total_cost < 0
  ) x ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_reconciliations_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_audit_dirty (invoice_id)
  SELECT DISTINCT c.invoice_id FROM new_rows c WHERE c.invoice_id IS NOT NULL ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_audit_reconciliation_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM insight_audit_mark(OLD.invoice_id);
  IF TG_OP = 'UPDATE' THEN
    PERFORM insight_audit_mark(NEW.invoice_id);
    RETURN NEW;
  END IF;
  RETURN OLD;
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
CREATE TRIGGER "insight_audit_lines_inserted" AFTER INSERT ON "invoice_details" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_lines_inserted"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_line_updated" BEFORE UPDATE ON "invoice_details" FOR EACH ROW
  WHEN ((OLD.invoice_id, OLD.customer_id, OLD.site_id, OLD.carrier_id, OLD.service_id, OLD.sender_region, OLD.receiver_region, OLD.consignment_number, OLD.total_cost, OLD.duplicate_of_detail_id)
        IS DISTINCT FROM
        (NEW.invoice_id, NEW.customer_id, NEW.site_id, NEW.carrier_id, NEW.service_id, NEW.sender_region, NEW.receiver_region, NEW.consignment_number, NEW.total_cost, NEW.duplicate_of_detail_id)
    AND (OLD.total_cost < 0 OR NEW.total_cost < 0 OR strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || OLD.invoice_id || ',') = 0 OR strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || NEW.invoice_id || ',') = 0))
  EXECUTE FUNCTION "insight_audit_line_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_line_deleted" BEFORE DELETE ON "invoice_details" FOR EACH ROW
  WHEN (OLD.total_cost < 0 OR strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || OLD.invoice_id || ',') = 0) EXECUTE FUNCTION "insight_audit_line_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_reconciliations_inserted" AFTER INSERT ON "reconciliations" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_reconciliations_inserted"();--> statement-breakpoint
-- (named to fire after reconciliations_line_keys, migration 0023, which fills invoice_id: before-triggers fire in name order)
CREATE TRIGGER "reconciliations_mark_audit" BEFORE UPDATE ON "reconciliations" FOR EACH ROW
  WHEN ((OLD.state, OLD.discrepancy_amount, OLD.reason_categories, OLD.invoice_id) IS DISTINCT FROM (NEW.state, NEW.discrepancy_amount, NEW.reason_categories, NEW.invoice_id)
    AND (strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || OLD.invoice_id || ',') = 0 OR strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || NEW.invoice_id || ',') = 0))
  EXECUTE FUNCTION "insight_audit_reconciliation_changed"();--> statement-breakpoint
CREATE TRIGGER "reconciliations_mark_audit_deleted" BEFORE DELETE ON "reconciliations" FOR EACH ROW
  WHEN (strpos(coalesce(current_setting('insight.audit_marked', true), ''), ',' || OLD.invoice_id || ',') = 0) EXECUTE FUNCTION "insight_audit_reconciliation_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_notes_inserted" AFTER INSERT ON "reconciliation_notes" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_notes_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_notes_deleted" AFTER DELETE ON "reconciliation_notes" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_notes_changed"();--> statement-breakpoint
CREATE TRIGGER "insight_audit_invoices_updated" AFTER UPDATE ON "invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_audit_invoices_updated"();--> statement-breakpoint
-- the payable invoices already there, once
INSERT INTO insight_audit_dirty (invoice_id) SELECT id FROM invoices WHERE accounting_type = 'payable' ORDER BY 1;
