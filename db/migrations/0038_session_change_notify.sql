-- What a signed-in user is made of (issue 32): a web process keeps a session's user in memory and
-- forgets it when one of these rows changes, on every process, before its next request is answered
-- (app/modules/auth/session-cache.server.ts, db/changes.server.ts). Sessions and users name the row;
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
CREATE TRIGGER customers_changed AFTER UPDATE OR DELETE OR TRUNCATE ON customers FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sites FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
--> statement-breakpoint
CREATE TRIGGER user_sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_sites FOR EACH STATEMENT EXECUTE FUNCTION freightdesk_session_changed();
