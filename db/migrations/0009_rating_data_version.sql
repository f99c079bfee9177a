CREATE TABLE "rating_data_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"instance" uuid DEFAULT gen_random_uuid() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rating_data_version" ADD CONSTRAINT "rating_data_version_one_row" CHECK ("id");
--> statement-breakpoint
INSERT INTO "rating_data_version" ("id") VALUES (true);
--> statement-breakpoint
CREATE FUNCTION "bump_rating_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "rating_data_version" SET "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "localities_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "localities" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "zones_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "zones" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "rate_lanes_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rate_lanes" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "fuel_levies_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "fuel_levies" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "surcharge_sets_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "surcharge_sets" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "carriers_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "carriers" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "services_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "services" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
CREATE TRIGGER "site_services_rating_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_services" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
--> statement-breakpoint
-- number allocation updates an account's counters many times a day: only what rating reads bumps
CREATE TRIGGER "carrier_accounts_rating_data" AFTER INSERT OR UPDATE OF "options" OR DELETE OR TRUNCATE ON "carrier_accounts" FOR EACH STATEMENT EXECUTE FUNCTION "bump_rating_data_version"();
