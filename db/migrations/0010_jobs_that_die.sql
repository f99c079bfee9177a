ALTER TABLE "jobs" ADD COLUMN "payload" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "site_ids" integer[];--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_working_heartbeat_idx" ON "jobs" USING btree ("heartbeat_at") WHERE status = 'working';