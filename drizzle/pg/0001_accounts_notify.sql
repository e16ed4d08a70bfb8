-- Every process keeps what it derived from accounts and keys (the principal of a key) until
-- they change: a change anywhere notifies channel siphon_accounts, which each store listens on.
-- A key's last-used touch alone does not: it changes nothing a principal depends on.
CREATE FUNCTION "siphon_accounts_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('siphon_accounts', TG_TABLE_NAME);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "accounts_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "accounts"
	FOR EACH STATEMENT EXECUTE FUNCTION "siphon_accounts_changed"();
--> statement-breakpoint
CREATE TRIGGER "api_keys_added_or_removed" AFTER INSERT OR DELETE OR TRUNCATE ON "api_keys"
	FOR EACH STATEMENT EXECUTE FUNCTION "siphon_accounts_changed"();
--> statement-breakpoint
CREATE TRIGGER "api_keys_changed" AFTER UPDATE ON "api_keys" FOR EACH ROW
	WHEN ((OLD.id, OLD.account_id, OLD.name, OLD.prefix, OLD.hash, OLD.kind, OLD.created_at, OLD.revoked_at)
		IS DISTINCT FROM (NEW.id, NEW.account_id, NEW.name, NEW.prefix, NEW.hash, NEW.kind, NEW.created_at, NEW.revoked_at))
	EXECUTE FUNCTION "siphon_accounts_changed"();
