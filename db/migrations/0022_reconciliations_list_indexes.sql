CREATE INDEX "reconciliations_state_id_idx" ON "reconciliations" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "reconciliations_state_margin_idx" ON "reconciliations" USING btree ("state","margin","id");--> statement-breakpoint
CREATE INDEX "reconciliations_state_discrepancy_idx" ON "reconciliations" USING btree ("state","discrepancy_amount","id");--> statement-breakpoint
CREATE INDEX "reconciliations_customer_state_idx" ON "reconciliations" USING btree ("customer_id","state","id");--> statement-breakpoint
CREATE INDEX "reconciliations_carrier_state_idx" ON "reconciliations" USING btree ("carrier_id","state","id");--> statement-breakpoint
CREATE INDEX "reconciliations_reasons_idx" ON "reconciliations" USING gin ("reason_categories");