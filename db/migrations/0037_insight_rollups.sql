-- Insight dashboards' rollups (issue 33 item 4, docs/decisions/042): one row per day, customer,
-- site, carrier, service, mode, lane (state to state), currency and transit days, so /insight reads
-- a few thousand rows instead of the consignments. Kept up to date by marks: every change to what
-- a figure reads (a consignment, a tracking event, an enquiry, an emissions figure) appends the
-- (customer, day) it touches to insight_dirty in its own transaction, and the worker recomputes
-- those slices (app/modules/insight/rollup.server.ts). Marks are appended, never merged: a mark
-- merged into one already there would be lost if the refresher took the old one before the change
-- committed.
CREATE TABLE "insight_daily" (
	"day" date NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"carrier_id" integer,
	"service_id" integer,
	"mode" text,
	"from_region" text NOT NULL,
	"to_region" text NOT NULL,
	"currency" text NOT NULL,
	"transit_days" integer,
	"consignments" integer NOT NULL,
	"rated" integer NOT NULL,
	"sell" numeric(16, 2) NOT NULL,
	"buy" numeric(16, 2) NOT NULL,
	"charge_kg" numeric(16, 3) NOT NULL,
	"delivered" integer NOT NULL,
	"with_eta" integer NOT NULL,
	"on_time" integer NOT NULL,
	"first_attempt" integer NOT NULL,
	"with_enquiry" integer NOT NULL,
	"with_emissions" integer NOT NULL,
	"kg_co2e" numeric(16, 3) NOT NULL,
	"tonne_km" numeric(18, 3) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_daily_customer_day_idx" ON "insight_daily" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_daily_day_idx" ON "insight_daily" USING btree ("day");--> statement-breakpoint
-- the same figures per month (day = the month's first day), summed from the daily rows of a
-- (customer, month) whenever one of its days is recomputed: a year's page reads twelve months of
-- these and only the days of a month the period cuts
CREATE TABLE "insight_monthly" (LIKE "insight_daily");--> statement-breakpoint
CREATE INDEX "insight_monthly_customer_day_idx" ON "insight_monthly" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_monthly_day_idx" ON "insight_monthly" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_dirty" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"day" date NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "insight_mark_consignments_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_dirty (customer_id, day)
  SELECT DISTINCT n.customer_id, n.despatch_date FROM new_rows n WHERE n.despatch_date IS NOT NULL ORDER BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
-- an update marks only when something a figure reads changed: most saves (labels printed, notes) mark nothing
CREATE FUNCTION "insight_mark_consignments_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_dirty (customer_id, day)
  SELECT DISTINCT x.customer_id, x.day FROM (
    SELECT o.customer_id, o.despatch_date AS day, n.customer_id AS new_customer_id, n.despatch_date AS new_day
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.state, o.despatch_date, o.rating_detail, o.service_id, o.site_id, o.estimated_delivery_date, o.active, o.is_quote,
           o.customer_id, o.sender_address_id, o.receiver_address_id, o.merged_into_id)
      IS DISTINCT FROM
          (n.state, n.despatch_date, n.rating_detail, n.service_id, n.site_id, n.estimated_delivery_date, n.active, n.is_quote,
           n.customer_id, n.sender_address_id, n.receiver_address_id, n.merged_into_id)
  ) c CROSS JOIN LATERAL (VALUES (c.customer_id, c.day), (c.new_customer_id, c.new_day)) AS x(customer_id, day)
  WHERE x.day IS NOT NULL ORDER BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "insight_mark_consignments_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_dirty (customer_id, day)
  SELECT DISTINCT o.customer_id, o.despatch_date FROM old_rows o WHERE o.despatch_date IS NOT NULL ORDER BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
-- tracking events, enquiries and emissions figures belong to a consignment: its (customer, despatch day) is marked
CREATE FUNCTION "insight_mark_by_consignment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO insight_dirty (customer_id, day)
  SELECT DISTINCT c.customer_id, c.despatch_date
  FROM new_rows n JOIN consignments c ON c.id = n.consignment_id
  WHERE c.despatch_date IS NOT NULL ORDER BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "insight_consignments_inserted" AFTER INSERT ON "consignments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_consignments_inserted"();--> statement-breakpoint
CREATE TRIGGER "insight_consignments_updated" AFTER UPDATE ON "consignments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_consignments_updated"();--> statement-breakpoint
CREATE TRIGGER "insight_consignments_deleted" AFTER DELETE ON "consignments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_consignments_deleted"();--> statement-breakpoint
CREATE TRIGGER "insight_tracking_events_inserted" AFTER INSERT ON "tracking_events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_by_consignment"();--> statement-breakpoint
CREATE TRIGGER "insight_tickets_inserted" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_by_consignment"();--> statement-breakpoint
CREATE TRIGGER "insight_tickets_updated" AFTER UPDATE ON "tickets" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_by_consignment"();--> statement-breakpoint
CREATE TRIGGER "insight_emissions_inserted" AFTER INSERT ON "consignment_emissions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_by_consignment"();--> statement-breakpoint
CREATE TRIGGER "insight_emissions_updated" AFTER UPDATE ON "consignment_emissions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "insight_mark_by_consignment"();--> statement-breakpoint
-- what was already there before the rollups existed: every day with consignments, once
INSERT INTO insight_dirty (customer_id, day)
SELECT DISTINCT customer_id, despatch_date FROM consignments WHERE despatch_date IS NOT NULL ORDER BY 1, 2;
