-- The insight rollups again without the lane (from and to state, transit days), the lanes' transit
-- days without carrier, service, mode and currency, and the audit's without site, service and lane
-- (issue 33 item 4, docs/decisions/042): a page with no lane filter reads these. Two years of a busy shipper are 17,607 monthly and 272,237 daily rows
-- per lane, but 450 and 13,140 without it; the carrier invoice audit per invoice, customer and
-- carrier is a row or two per invoice where per site, service and lane it was a hundred. Only the
-- transit-days chart and a lane filter need the lanes, and only a site, service or lane filter the
-- audit's detail. Written beside the detailed rows by the same refresher transaction, summed from
-- them (app/modules/insight/rollup.server.ts, audit-rollup.server.ts).
-- First the refresher's lock (rollup.server.ts REFRESH_LOCK), so no refresh runs between the sums
-- below and the detail they are taken from; taken before any table is, as a refresher holding it
-- and then writing insight_monthly would otherwise deadlock with the index dropped at the end.
SELECT pg_advisory_xact_lock(4033001);--> statement-breakpoint
CREATE TABLE "insight_daily_brief" (
	"day" date NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"carrier_id" integer,
	"service_id" integer,
	"mode" text,
	"currency" text NOT NULL,
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
CREATE INDEX "insight_daily_brief_customer_day_idx" ON "insight_daily_brief" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_daily_brief_day_idx" ON "insight_daily_brief" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_monthly_brief" (LIKE "insight_daily_brief");--> statement-breakpoint
CREATE INDEX "insight_monthly_brief_customer_day_idx" ON "insight_monthly_brief" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_monthly_brief_day_idx" ON "insight_monthly_brief" USING btree ("day");--> statement-breakpoint
-- the carriers a customer's reader is offered (0041) are probed here now, a smaller index (0041's
-- on insight_monthly is dropped at the end)
CREATE INDEX "insight_monthly_brief_customer_carrier_idx" ON "insight_monthly_brief" USING btree ("customer_id","carrier_id");--> statement-breakpoint
-- delivered consignments per lane and transit days alone (and customer and site, the reader's
-- scope): the transit-days chart without a carrier or service filter reads these, 1,440 rows for a
-- busy year where the detailed monthly rows are 8,613
CREATE TABLE "insight_daily_transit" (
	"day" date NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"from_region" text NOT NULL,
	"to_region" text NOT NULL,
	"transit_days" integer,
	"delivered" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_daily_transit_customer_day_idx" ON "insight_daily_transit" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_daily_transit_day_idx" ON "insight_daily_transit" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_monthly_transit" (LIKE "insight_daily_transit");--> statement-breakpoint
CREATE INDEX "insight_monthly_transit_customer_day_idx" ON "insight_monthly_transit" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_monthly_transit_day_idx" ON "insight_monthly_transit" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_audit_brief" (
	"invoice_id" integer NOT NULL,
	"day" date NOT NULL,
	"customer_id" integer,
	"carrier_id" integer,
	"lines" integer NOT NULL,
	"matched" integer NOT NULL,
	"discrepancy_found" numeric(16, 2) NOT NULL,
	"disputed" numeric(16, 2) NOT NULL,
	"recovered" numeric(16, 2) NOT NULL,
	"duplicates" integer NOT NULL,
	"duplicates_amount" numeric(16, 2) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_audit_brief_invoice_idx" ON "insight_audit_brief" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "insight_audit_brief_customer_day_idx" ON "insight_audit_brief" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_audit_brief_day_idx" ON "insight_audit_brief" USING btree ("day");--> statement-breakpoint
CREATE TABLE "insight_audit_reasons_brief" (
	"invoice_id" integer NOT NULL,
	"day" date NOT NULL,
	"customer_id" integer,
	"carrier_id" integer,
	"reason" text NOT NULL,
	"lines" integer NOT NULL,
	"amount" numeric(16, 2) NOT NULL
);
--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_brief_invoice_idx" ON "insight_audit_reasons_brief" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_brief_customer_day_idx" ON "insight_audit_reasons_brief" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "insight_audit_reasons_brief_day_idx" ON "insight_audit_reasons_brief" USING btree ("day");--> statement-breakpoint
INSERT INTO "insight_daily_brief"
SELECT day, customer_id, site_id, carrier_id, service_id, mode, currency,
  sum(consignments), sum(rated), sum(sell), sum(buy), sum(charge_kg), sum(delivered), sum(with_eta), sum(on_time),
  sum(first_attempt), sum(with_enquiry), sum(with_emissions), sum(kg_co2e), sum(tonne_km)
FROM "insight_daily" GROUP BY 1, 2, 3, 4, 5, 6, 7;--> statement-breakpoint
INSERT INTO "insight_monthly_brief"
SELECT day, customer_id, site_id, carrier_id, service_id, mode, currency,
  sum(consignments), sum(rated), sum(sell), sum(buy), sum(charge_kg), sum(delivered), sum(with_eta), sum(on_time),
  sum(first_attempt), sum(with_enquiry), sum(with_emissions), sum(kg_co2e), sum(tonne_km)
FROM "insight_monthly" GROUP BY 1, 2, 3, 4, 5, 6, 7;--> statement-breakpoint
INSERT INTO "insight_daily_transit"
SELECT day, customer_id, site_id, from_region, to_region, transit_days, sum(delivered)
FROM "insight_daily" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "insight_monthly_transit"
SELECT day, customer_id, site_id, from_region, to_region, transit_days, sum(delivered)
FROM "insight_monthly" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "insight_audit_brief"
SELECT invoice_id, day, customer_id, carrier_id, sum(lines), sum(matched), sum(discrepancy_found), sum(disputed), sum(recovered), sum(duplicates), sum(duplicates_amount)
FROM "insight_audit" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "insight_audit_reasons_brief"
SELECT invoice_id, day, customer_id, carrier_id, reason, sum(lines), sum(amount)
FROM "insight_audit_reasons" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
DROP INDEX "insight_monthly_customer_carrier_idx";
