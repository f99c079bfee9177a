CREATE TABLE "printers" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"printer_type" text NOT NULL,
	"format" text DEFAULT 'pdf' NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "printers" ADD CONSTRAINT "printers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "printers_customer_type_idx" ON "printers" USING btree ("customer_id","printer_type");