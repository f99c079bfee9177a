-- A user's own time zone and date format (issue 31 #1, decision 032); null means inherit (default site, customer country, provider)
ALTER TABLE "users" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "date_format" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_date_format_known" CHECK ("date_format" is null or "date_format" in ('DD/MM/YYYY', 'MM/DD/YYYY'));
