-- Shipping rules (issue 34 item 2, docs/decisions/040): a customer's ordered rules (optionally for
-- one site) that pick or restrict the carrier service a rate shop offers. Conditions and actions are
-- JSON checked by the module's zod schemas. Changes bump rating_data_version (migration 0009) so
-- every process drops its compiled rules with the rest of the rating cache.
CREATE TABLE "shipping_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"site_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipping_rules" ADD CONSTRAINT "shipping_rules_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_rules" ADD CONSTRAINT "shipping_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipping_rules_customer_idx" ON "shipping_rules" USING btree ("customer_id","position");--> statement-breakpoint
CREATE TRIGGER "shipping_rules_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_rules" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
