-- What a signed-in user is made of, and a customer's item types (issue 32): a web process keeps them
-- in memory and forgets them when one of these rows changes, on every process, before its next
-- request is answered (db/kept.server.ts, db/changes.server.ts). Sessions and users name the row,
-- item types their customer;
-- customers, sites and the user-site links (rare, administrators' changes) and any TRUNCATE forget
-- everything.
CREATE OR REPLACE FUNCTION freightdesk_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('freightdesk_changes', 'all');
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('freightdesk_changes', 'sessions:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('freightdesk_changes', 'users:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'item_types' THEN
    -- a type moved to another customer is gone from the first: both are told
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('freightdesk_changes', 'item_types:' || OLD.customer_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('freightdesk_changes', 'item_types:' || NEW.customer_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER item_types_changed AFTER INSERT OR UPDATE OR DELETE ON item_types FOR EACH ROW EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER item_types_truncated AFTER TRUNCATE ON item_types FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER customers_changed AFTER UPDATE OR DELETE OR TRUNCATE ON customers FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sites FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER user_sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_sites FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
