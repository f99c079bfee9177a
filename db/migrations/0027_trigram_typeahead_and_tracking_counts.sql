CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "addresses_recipient_trgm_idx" ON "addresses" USING gin ("name" gin_trgm_ops, "code" gin_trgm_ops, "locality" gin_trgm_ops) WHERE "is_recipient";
--> statement-breakpoint
CREATE TABLE "tracking_guess_counts" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
