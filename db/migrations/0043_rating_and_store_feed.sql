-- More of what every request reads joins the change feed of migration 0038 (issue 32): the rating
-- data's version, the online stores and their products, and the tracking limiter's counts. A web
-- process keeps them and forgets them when told, before its next request is answered
-- (db/kept.server.ts). Every statement that changes rating data writes the version row (migration
-- 0009), so the row's own trigger tells of them all, and of a hand edit of it too. Rating data and
-- stores change rarely (administrators' edits, imports); PostgreSQL folds the same payload sent
-- twice in one transaction into one notification.
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
--> statement-breakpoint
-- the public tracking limiter's counts (server/tracking-limits.ts): each address's row, named
CREATE FUNCTION freightdesk_guess_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('freightdesk_changes', 'tracking_guesses');
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('freightdesk_changes', 'tracking_guesses:' || NEW.key);
  ELSE
    PERFORM pg_notify('freightdesk_changes', 'tracking_guesses:' || OLD.key);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tracking_guess_counts_changed AFTER INSERT OR UPDATE OR DELETE ON tracking_guess_counts FOR EACH ROW EXECUTE FUNCTION freightdesk_guess_changed();
--> statement-breakpoint
CREATE TRIGGER tracking_guess_counts_truncated AFTER TRUNCATE ON tracking_guess_counts FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_guess_changed();
