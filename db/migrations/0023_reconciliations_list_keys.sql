CREATE TABLE "reconciliation_tallies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer,
	"carrier_id" integer,
	"state" text NOT NULL,
	"reasons" text[] DEFAULT '{}'::text[] NOT NULL,
	"lines" integer NOT NULL,
	"margin" numeric(16, 2) NOT NULL,
	"discrepancy" numeric(16, 2) NOT NULL
);
--> statement-breakpoint
DROP INDEX "reconciliations_state_idx";--> statement-breakpoint
DROP INDEX "reconciliations_state_margin_idx";--> statement-breakpoint
DROP INDEX "reconciliations_state_discrepancy_idx";--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "invoice_id" integer;--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "consignment_key" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "invoice_number_key" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "from_zone_key" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "to_zone_key" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "reconciliations" ADD COLUMN "charge_weight" numeric(12, 3);--> statement-breakpoint
CREATE INDEX "reconciliation_tallies_customer_idx" ON "reconciliation_tallies" USING btree ("customer_id","carrier_id");--> statement-breakpoint
CREATE INDEX "reconciliations_state_consignment_idx" ON "reconciliations" USING btree ("state","consignment_key","id","customer_id","carrier_id","margin","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_state_invoice_number_idx" ON "reconciliations" USING btree ("state","invoice_number_key","id","customer_id","carrier_id","margin","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_state_from_zone_idx" ON "reconciliations" USING btree ("state","from_zone_key","id","customer_id","carrier_id","margin","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_state_to_zone_idx" ON "reconciliations" USING btree ("state","to_zone_key","id","customer_id","carrier_id","margin","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_state_weight_idx" ON "reconciliations" USING btree ("state","charge_weight","id","customer_id","carrier_id","margin","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_invoice_state_idx" ON "reconciliations" USING btree ("invoice_id","state","id");--> statement-breakpoint
CREATE INDEX "reconciliations_state_margin_idx" ON "reconciliations" USING btree ("state","margin","id","customer_id","carrier_id","discrepancy_amount");--> statement-breakpoint
CREATE INDEX "reconciliations_state_discrepancy_idx" ON "reconciliations" USING btree ("state","discrepancy_amount","id","customer_id","carrier_id","margin");--> statement-breakpoint
-- The list's keys for the reconciliations there are, from their invoice lines and invoices.
UPDATE "reconciliations" r SET "invoice_id" = d."invoice_id", "consignment_key" = upper(d."consignment_number"), "invoice_number_key" = upper(i."invoice_number"),
  "from_zone_key" = upper(d."sender_zone"), "to_zone_key" = upper(d."receiver_zone"), "charge_weight" = d."total_charge_weight"
FROM "invoice_details" d JOIN "invoices" i ON i."id" = d."invoice_id" WHERE d."id" = r."invoice_detail_id";
--> statement-breakpoint
-- A new reconciliation takes its keys from its invoice line, whoever writes it (the reconcile
-- job's upsert joins them itself, set-wise, and is spared the trigger).
CREATE FUNCTION reconciliation_line_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.invoice_id, upper(d.consignment_number), upper(i.invoice_number), upper(d.sender_zone), upper(d.receiver_zone), d.total_charge_weight
    INTO NEW.invoice_id, NEW.consignment_key, NEW.invoice_number_key, NEW.from_zone_key, NEW.to_zone_key, NEW.charge_weight
    FROM invoice_details d JOIN invoices i ON i.id = d.invoice_id WHERE d.id = NEW.invoice_detail_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER reconciliations_line_keys BEFORE INSERT ON reconciliations FOR EACH ROW WHEN (NEW.invoice_id IS NULL) EXECUTE FUNCTION reconciliation_line_keys();
--> statement-breakpoint
CREATE TRIGGER reconciliations_line_keys_moved BEFORE UPDATE OF invoice_detail_id ON reconciliations FOR EACH ROW EXECUTE FUNCTION reconciliation_line_keys();
--> statement-breakpoint
-- An edited invoice line (the invoice detail modal) carries its new values to its reconciliation.
CREATE FUNCTION invoice_detail_reconciliation_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reconciliations SET invoice_id = NEW.invoice_id, consignment_key = upper(NEW.consignment_number),
    invoice_number_key = (SELECT upper(invoice_number) FROM invoices WHERE id = NEW.invoice_id),
    from_zone_key = upper(NEW.sender_zone), to_zone_key = upper(NEW.receiver_zone), charge_weight = NEW.total_charge_weight
  WHERE invoice_detail_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invoice_details_reconciliation_keys AFTER UPDATE OF invoice_id, consignment_number, sender_zone, receiver_zone, total_charge_weight ON invoice_details FOR EACH ROW
  WHEN ((OLD.invoice_id, OLD.consignment_number, OLD.sender_zone, OLD.receiver_zone, OLD.total_charge_weight) IS DISTINCT FROM (NEW.invoice_id, NEW.consignment_number, NEW.sender_zone, NEW.receiver_zone, NEW.total_charge_weight))
  EXECUTE FUNCTION invoice_detail_reconciliation_keys();
--> statement-breakpoint
CREATE FUNCTION invoice_reconciliation_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reconciliations SET invoice_number_key = upper(NEW.invoice_number) WHERE invoice_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invoices_reconciliation_keys AFTER UPDATE OF invoice_number ON invoices FOR EACH ROW
  WHEN (OLD.invoice_number IS DISTINCT FROM NEW.invoice_number) EXECUTE FUNCTION invoice_reconciliation_keys();
--> statement-breakpoint
-- The tallies: what each statement added to (or took from) the counts and totals of each
-- customer, carrier, state and set of reasons. Appended, never updated in place, so two writers never wait on one row.
INSERT INTO reconciliation_tallies (customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
  SELECT customer_id, carrier_id, state, reason_categories, count(*), sum(margin), sum(discrepancy_amount) FROM reconciliations GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE FUNCTION reconciliation_tally_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO reconciliation_tallies (customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
    SELECT customer_id, carrier_id, state, reason_categories, count(*), sum(margin), sum(discrepancy_amount) FROM added GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reconciliations_tally_insert AFTER INSERT ON reconciliations REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION reconciliation_tally_added();
--> statement-breakpoint
CREATE FUNCTION reconciliation_tally_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO reconciliation_tallies (customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
    SELECT customer_id, carrier_id, state, reason_categories, -count(*), -sum(margin), -sum(discrepancy_amount) FROM removed GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reconciliations_tally_delete AFTER DELETE ON reconciliations REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION reconciliation_tally_removed();
--> statement-breakpoint
-- only the rows whose tallied values changed count: most updates (a note, a re-rate) change none
CREATE FUNCTION reconciliation_tally_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO reconciliation_tallies (customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
    SELECT customer_id, carrier_id, state, reasons, sum(lines), sum(margin), sum(discrepancy) FROM (
      -- each changed row as its old values taken away and its new ones added
      SELECT side.* FROM before_rows o JOIN after_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES
          (o.customer_id, o.carrier_id, o.state, o.reason_categories, -1, -o.margin, -o.discrepancy_amount),
          (n.customer_id, n.carrier_id, n.state, n.reason_categories, 1, n.margin, n.discrepancy_amount)
        ) AS side(customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
        WHERE (o.customer_id, o.carrier_id, o.state, o.reason_categories, o.margin, o.discrepancy_amount) IS DISTINCT FROM (n.customer_id, n.carrier_id, n.state, n.reason_categories, n.margin, n.discrepancy_amount)
    ) changed GROUP BY 1, 2, 3, 4 HAVING sum(lines) <> 0 OR sum(margin) <> 0 OR sum(discrepancy) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reconciliations_tally_update AFTER UPDATE ON reconciliations REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION reconciliation_tally_changed();
--> statement-breakpoint
CREATE FUNCTION reconciliation_tally_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM reconciliation_tallies;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reconciliations_tally_truncate AFTER TRUNCATE ON reconciliations FOR EACH STATEMENT EXECUTE FUNCTION reconciliation_tally_emptied();
--> statement-breakpoint
-- Folds the ledger into one row per customer, carrier and state. Rows another transaction appends
-- meanwhile are not in this one's snapshot, so they are neither deleted nor counted twice.
CREATE FUNCTION compact_reconciliation_tallies() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE folded integer;
BEGIN
  WITH gone AS (DELETE FROM reconciliation_tallies RETURNING customer_id, carrier_id, state, reasons, lines, margin, discrepancy),
  kept AS (
    INSERT INTO reconciliation_tallies (customer_id, carrier_id, state, reasons, lines, margin, discrepancy)
      SELECT customer_id, carrier_id, state, reasons, sum(lines), sum(margin), sum(discrepancy) FROM gone GROUP BY 1, 2, 3, 4
      HAVING sum(lines) <> 0 OR sum(margin) <> 0 OR sum(discrepancy) <> 0
      RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept) INTO folded;
  RETURN folded;
END $$;
