-- AlterTable
ALTER TABLE "archive_event" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "keepsecret_acceptance" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "access_log" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "notice_event" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "empower_audit" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "document_issue_message" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "countersign_event" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "bom_event" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "permission_change_log" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "phone_view_log" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable
ALTER TABLE "sign_in_log" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- AlterTable (the schema this migration was diffed from missed access_delivery, created by 20261127032323_access_delivery)
ALTER TABLE "access_delivery" ADD COLUMN     "chain_seq" INTEGER,
ADD COLUMN     "prev_hash" VARCHAR(64),
ADD COLUMN     "row_hash" VARCHAR(64);

-- CreateTable
CREATE TABLE "audit_verification" (
    "id" SERIAL NOT NULL,
    "source" VARCHAR(8) NOT NULL,
    "user_id" INTEGER,
    "user_name" VARCHAR(100) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "rows" INTEGER NOT NULL,
    "problems" JSONB NOT NULL,
    "heads" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_verification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "access_delivery_chain_seq_key" ON "access_delivery"("chain_seq");

-- CreateIndex
CREATE INDEX "audit_verification_created_at_idx" ON "audit_verification"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "archive_event_chain_seq_key" ON "archive_event"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "keepsecret_acceptance_chain_seq_key" ON "keepsecret_acceptance"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "access_log_chain_seq_key" ON "access_log"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "notice_event_chain_seq_key" ON "notice_event"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "empower_audit_chain_seq_key" ON "empower_audit"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "document_issue_message_chain_seq_key" ON "document_issue_message"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "countersign_event_chain_seq_key" ON "countersign_event"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "bom_event_chain_seq_key" ON "bom_event"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "permission_change_log_chain_seq_key" ON "permission_change_log"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "phone_view_log_chain_seq_key" ON "phone_view_log"("chain_seq");

-- CreateIndex
CREATE UNIQUE INDEX "sign_in_log_chain_seq_key" ON "sign_in_log"("chain_seq");

-- The tamper-evident chain (apps/api/src/modules/audit/chain.ts reads and verifies it). Every row
-- that records an act gets, before it is inserted and so in the transaction of the act itself:
--   chain_seq  its place in its table's chain (1, 2, 3 … without gaps),
--   prev_hash  the row_hash of the row before it (64 zeros for the first),
--   row_hash   sha256(prev_hash || canonical content), hex, where the canonical content is the
--              row as jsonb (keys in jsonb's fixed order) without prev_hash and row_hash and
--              without null values — so a nullable column added later leaves old hashes intact.
-- One chain per table: an act locks only its own table's chain (a download never waits for a
-- sign-in), and each table verifies on its own. The advisory lock serialises the acts of one
-- table from the head read to the commit; a trigger rather than code in the writers covers every
-- path that writes these rows, the raw-SQL ones and the demo seed included.
-- Drafts (an application or a question not yet submitted) are the supplier's own working copy,
-- deleted with their rows when discarded: their rows stay outside the chain (chain_seq NULL).
CREATE FUNCTION "audit_chain_link"() RETURNS trigger LANGUAGE plpgsql SET "TimeZone" = 'UTC' AS $$
DECLARE
  head record;
BEGIN
  PERFORM pg_advisory_xact_lock(30601, hashtext(TG_TABLE_NAME));
  EXECUTE format('SELECT chain_seq, row_hash FROM %I.%I WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1', TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO head;
  NEW.chain_seq := coalesce(head.chain_seq, 0) + 1;
  NEW.prev_hash := coalesce(head.row_hash, repeat('0', 64));
  NEW.row_hash := encode(sha256(convert_to(NEW.prev_hash || jsonb_strip_nulls(to_jsonb(NEW) - 'prev_hash' - 'row_hash')::text, 'UTF8')), 'hex');
  RETURN NEW;
END
$$;

-- The rows already there join the chain in the order they happened (time, then id): one pass,
-- each row's content taken from the row read (with its new place), one UPDATE per row.
CREATE FUNCTION "audit_chain_backfill"(t text, happened text, only_where text) RETURNS void LANGUAGE plpgsql SET "TimeZone" = 'UTC' AS $$
DECLARE
  r record;
  seq integer := 0;
  prev text := repeat('0', 64);
  h text;
BEGIN
  FOR r IN EXECUTE format('SELECT id, to_jsonb(x) AS j FROM %I x WHERE %s ORDER BY %I, id', t, only_where, happened) LOOP
    seq := seq + 1;
    h := encode(sha256(convert_to(prev || jsonb_strip_nulls((r.j || jsonb_build_object('chain_seq', seq)) - 'prev_hash' - 'row_hash')::text, 'UTF8')), 'hex');
    EXECUTE format('UPDATE %I SET chain_seq = $1, prev_hash = $2, row_hash = $3 WHERE id = $4', t) USING seq, prev, h, r.id;
    prev := h;
  END LOOP;
END
$$;

ALTER TABLE "permission_change_log" DISABLE TRIGGER "permission_change_log_append_only";
ALTER TABLE "phone_view_log" DISABLE TRIGGER "phone_view_log_append_only";
SELECT audit_chain_backfill('access_log', 'created_at', 'true');
SELECT audit_chain_backfill('access_delivery', 'finished_at', 'true');
SELECT audit_chain_backfill('keepsecret_acceptance', 'accepted_at', 'true');
SELECT audit_chain_backfill('archive_event', 'created_at', 'true');
SELECT audit_chain_backfill('notice_event', 'created_at', 'true');
SELECT audit_chain_backfill('empower_audit', 'created_at', $w$to_status <> 'DRAFT'$w$);
SELECT audit_chain_backfill('document_issue_message', 'created_at', $w$to_status <> 'DRAFT'$w$);
SELECT audit_chain_backfill('countersign_event', 'created_at', 'true');
SELECT audit_chain_backfill('bom_event', 'created_at', 'true');
SELECT audit_chain_backfill('permission_change_log', 'created_at', 'true');
SELECT audit_chain_backfill('phone_view_log', 'created_at', 'true');
SELECT audit_chain_backfill('sign_in_log', 'created_at', 'true');
ALTER TABLE "permission_change_log" ENABLE TRIGGER "permission_change_log_append_only";
ALTER TABLE "phone_view_log" ENABLE TRIGGER "phone_view_log_append_only";
DROP FUNCTION "audit_chain_backfill"(text, text, text);

CREATE TRIGGER "access_log_chain" BEFORE INSERT ON "access_log" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "access_delivery_chain" BEFORE INSERT ON "access_delivery" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "keepsecret_acceptance_chain" BEFORE INSERT ON "keepsecret_acceptance" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "archive_event_chain" BEFORE INSERT ON "archive_event" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "notice_event_chain" BEFORE INSERT ON "notice_event" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "empower_audit_chain" BEFORE INSERT ON "empower_audit" FOR EACH ROW WHEN (NEW.to_status <> 'DRAFT') EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "document_issue_message_chain" BEFORE INSERT ON "document_issue_message" FOR EACH ROW WHEN (NEW.to_status <> 'DRAFT') EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "countersign_event_chain" BEFORE INSERT ON "countersign_event" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "bom_event_chain" BEFORE INSERT ON "bom_event" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "permission_change_log_chain" BEFORE INSERT ON "permission_change_log" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "phone_view_log_chain" BEFORE INSERT ON "phone_view_log" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "sign_in_log_chain" BEFORE INSERT ON "sign_in_log" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
