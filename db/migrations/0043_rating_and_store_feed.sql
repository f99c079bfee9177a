-- The rating data's version, the online stores and their products join the change feed of migration 0038 (issue
-- 32): a web process keeps the version stamp and each store and product it served, and forgets them when told,
-- before its next request is answered (db/kept.server.ts). Every statement that changes rating data
-- writes the version row (migration 0009), so the row's own trigger tells of them all, and of a hand
-- edit of it too. Both change rarely (administrators' edits, imports); PostgreSQL folds the same
-- payload sent twice in one transaction into one notification.
CREATE FUNCTION freightdesk_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('freightdesk_changes', TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER rating_data_version_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON rating_data_version FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_notify('rating');
--> statement-breakpoint
CREATE TRIGGER stores_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON stores FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_notify('stores');
--> statement-breakpoint
CREATE TRIGGER store_products_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_products FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_notify('store_products');
