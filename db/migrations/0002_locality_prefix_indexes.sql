DROP INDEX "localities_country_postcode_idx";--> statement-breakpoint
CREATE INDEX "localities_country_sublocality_idx" ON "localities" USING btree ("country",lower("sublocality") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "localities_country_postcode_idx" ON "localities" USING btree ("country","postcode" text_pattern_ops);