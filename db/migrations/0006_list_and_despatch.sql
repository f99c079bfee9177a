ALTER TABLE "consignments" ADD COLUMN "party_name" text;--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "item_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "total_weight" numeric(14, 3) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "total_volume" numeric(14, 4) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "hazardous" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consignments" ADD COLUMN "item_references" text;--> statement-breakpoint
ALTER TABLE "manifests" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "manifests" ADD COLUMN "despatched_by" integer;--> statement-breakpoint
ALTER TABLE "manifests" ADD CONSTRAINT "manifests_despatched_by_users_id_fk" FOREIGN KEY ("despatched_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consignments_customer_state_date_idx" ON "consignments" USING btree ("customer_id","state","despatch_date");