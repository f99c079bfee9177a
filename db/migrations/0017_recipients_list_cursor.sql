DROP INDEX "addresses_customer_name_idx";--> statement-breakpoint
CREATE INDEX "addresses_customer_name_id_idx" ON "addresses" USING btree ("customer_id","is_recipient",lower("name"),"id");