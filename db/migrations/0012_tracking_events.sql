CREATE TABLE "simulated_journeys" (
	"consignment_id" integer PRIMARY KEY NOT NULL,
	"events" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"consignment_id" integer NOT NULL,
	"event" text NOT NULL,
	"carrier_event" text NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"event_date" date NOT NULL,
	"message" text,
	"latitude" double precision,
	"longitude" double precision,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pod_url" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "can_post_tracking_events" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "simulated_journeys" ADD CONSTRAINT "simulated_journeys_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_consignment_id_consignments_id_fk" FOREIGN KEY ("consignment_id") REFERENCES "public"."consignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_events_consignment_event_time_key" ON "tracking_events" USING btree ("consignment_id","carrier_event","event_time");