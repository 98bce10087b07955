-- AlterTable
ALTER TABLE "app_user" ADD COLUMN     "sessions_valid_from" TIMESTAMP(3);

-- Sessions end for good when the account is disabled or its type or supplier changes: re-enabling
-- it does not bring them back (before, a session that made no call while the account was disabled
-- lived on). Set here, in the database, so it holds however the account is changed (an admin tool
-- or plain SQL); plugins/auth.ts refuses a session signed in before it. UTC, as Prisma stores
-- timestamps.
CREATE FUNCTION "app_user_end_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.enabled AND NOT NEW.enabled) OR NEW.type IS DISTINCT FROM OLD.type OR NEW.supplier_code IS DISTINCT FROM OLD.supplier_code THEN
    NEW.sessions_valid_from := now() AT TIME ZONE 'UTC';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "app_user_end_sessions" BEFORE UPDATE ON "app_user" FOR EACH ROW EXECUTE FUNCTION "app_user_end_sessions"();
