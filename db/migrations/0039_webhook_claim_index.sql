-- The webhook dispatcher's claim reads each active endpoint's oldest unfinished deliveries
-- (issue 34): one endpoint's backlog no longer fills the candidates of every endpoint.
CREATE INDEX "webhook_deliveries_endpoint_unfinished_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id") WHERE "webhook_deliveries"."state" in ('pending', 'sending');
--> statement-breakpoint
-- its one reader was the claim, which read the oldest unfinished deliveries of all endpoints together
DROP INDEX IF EXISTS "webhook_deliveries_unfinished_idx";
