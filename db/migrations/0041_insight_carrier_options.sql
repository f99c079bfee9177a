-- The carriers a customer's reader of /insight is offered are those its consignments went with: one
-- probe of this index per carrier, where "select distinct carrier_id" read every monthly row of the
-- customer (two years of a busy shipper: tens of thousands) on every page.
CREATE INDEX "insight_monthly_customer_carrier_idx" ON "insight_monthly" USING btree ("customer_id","carrier_id");
