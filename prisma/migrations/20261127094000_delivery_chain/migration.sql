-- CreateTable
CREATE TABLE "notification_delivery_event" (
    "id" SERIAL NOT NULL,
    "delivery_id" INTEGER NOT NULL,
    "notification_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" VARCHAR(32) NOT NULL,
    "subject" VARCHAR(200) NOT NULL,
    "channel" VARCHAR(16) NOT NULL,
    "address" VARCHAR(254) NOT NULL,
    "event" VARCHAR(16) NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "tries" INTEGER NOT NULL,
    "answer" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL,
    "chain_seq" INTEGER,
    "prev_hash" VARCHAR(64),
    "row_hash" VARCHAR(64),

    CONSTRAINT "notification_delivery_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_delivery_event_delivery_id_id_idx" ON "notification_delivery_event"("delivery_id", "id");

-- CreateIndex
CREATE INDEX "notification_delivery_event_created_at_idx" ON "notification_delivery_event"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "notification_delivery_event_chain_seq_key" ON "notification_delivery_event"("chain_seq");

-- Deliveries of notifications join the chain. A notification_delivery row changes as it moves
-- (PENDING → tries → SENT or FAILED, FAILED → PENDING again on 重新发送), and a hash over a row
-- that is meant to change proves nothing. So each fact of a delivery is a row of its own in
-- notification_delivery_event, written by a trigger on notification_delivery in the statement
-- (and so the transaction) that changes it, whatever code does: queued, a try refused, sent,
-- failed, queued again. Those rows never change: append-only and chained like the other acts.
-- The notification_delivery row stays what the outbox and its page work on, and is the latest
-- of its events; audit:verify checks that it still is.
CREATE FUNCTION "notification_delivery_record"() RETURNS trigger LANGUAGE plpgsql SET "TimeZone" = 'UTC' AS $$
DECLARE
  n record;
  what text;
  at timestamp(3);
BEGIN
  SELECT user_id, kind, subject INTO n FROM notification WHERE id = NEW.notification_id;
  IF TG_OP = 'INSERT' THEN
    what := 'QUEUED';
    at := NEW.created_at;
  ELSE
    what := CASE
      WHEN NEW.state = 'SENT' AND OLD.state <> 'SENT' THEN 'SENT'
      WHEN NEW.state = 'FAILED' AND OLD.state <> 'FAILED' THEN 'FAILED'
      WHEN NEW.state = 'BOUNCED' AND OLD.state <> 'BOUNCED' THEN 'BOUNCED'
      WHEN NEW.state = 'PENDING' AND OLD.state = 'FAILED' THEN 'REQUEUED'
      WHEN NEW.state = 'PENDING' AND NEW.tries > OLD.tries THEN 'TRIED'
      ELSE 'CHANGED' END;
    at := CASE WHEN NEW.updated_at IS DISTINCT FROM OLD.updated_at THEN NEW.updated_at ELSE now()::timestamp END;
  END IF;
  INSERT INTO notification_delivery_event (delivery_id, notification_id, user_id, kind, subject, channel, address, event, state, tries, answer, created_at)
  VALUES (NEW.id, NEW.notification_id, n.user_id, n.kind, n.subject, NEW.channel, NEW.address, what, NEW.state, NEW.tries, NEW.last_answer, at);
  RETURN NULL;
END
$$;

-- Hash chains computed set-based: audit_chain_hash(start, content) is sha256(previous ||
-- content) as an aggregate (the first row's previous being `start`), so over a window ordered by
-- place it gives every row's hash in one pass, and a table is filled by one UPDATE instead of one
-- per row (measured in docs/benchmarks.md, audit-chain). Same hashes as audit_chain_link writes:
-- the content is the row's jsonb without the hashes and nulls, with its new place. Kept for a
-- table that joins the chain later.
CREATE FUNCTION "audit_chain_step"(prev text, start text, content text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(coalesce(prev, start) || content, 'UTF8')), 'hex')
$$;

CREATE AGGREGATE "audit_chain_hash"(text, text) (SFUNC = "audit_chain_step", STYPE = text);

-- Gives the rows of `t` matching `only_where` that have no place yet their places after the
-- chain's head, in the order they happened (`happened`, then id). Answers how many it placed.
CREATE FUNCTION "audit_chain_fill"(t text, happened text, only_where text) RETURNS integer LANGUAGE plpgsql SET "TimeZone" = 'UTC' AS $$
DECLARE
  head record;
  placed integer;
BEGIN
  PERFORM pg_advisory_xact_lock(30601, hashtext(t));
  EXECUTE format('SELECT chain_seq, row_hash FROM %I WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1', t) INTO head;
  EXECUTE format($q$
    WITH placed AS (
      SELECT id, $1 + row_number() OVER (ORDER BY %2$I, id)::int AS seq, x FROM %1$I x WHERE chain_seq IS NULL AND (%3$s)
    ), hashed AS (
      SELECT id, seq, audit_chain_hash($2, jsonb_strip_nulls((to_jsonb(x) || jsonb_build_object('chain_seq', seq)) - 'prev_hash' - 'row_hash')::text) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) AS h
      FROM placed
    ), linked AS (
      SELECT id, seq, h, lag(h, 1, $2) OVER (ORDER BY seq) AS prev FROM hashed
    )
    UPDATE %1$I t SET chain_seq = linked.seq, prev_hash = linked.prev, row_hash = linked.h FROM linked WHERE t.id = linked.id$q$, t, happened, only_where)
    USING coalesce(head.chain_seq, 0), coalesce(head.row_hash, repeat('0', 64));
  GET DIAGNOSTICS placed = ROW_COUNT;
  RETURN placed;
END
$$;

-- The deliveries already there: one fact each, their state as it stands (their history before
-- this migration was not kept), in the order they last changed.
INSERT INTO notification_delivery_event (delivery_id, notification_id, user_id, kind, subject, channel, address, event, state, tries, answer, created_at)
SELECT d.id, d.notification_id, n.user_id, n.kind, n.subject, d.channel, d.address,
       CASE d.state WHEN 'SENT' THEN 'SENT' WHEN 'FAILED' THEN 'FAILED' ELSE CASE WHEN d.tries > 0 THEN 'TRIED' ELSE 'QUEUED' END END,
       d.state, d.tries, d.last_answer, d.updated_at
FROM notification_delivery d JOIN notification n ON n.id = d.notification_id
ORDER BY d.updated_at, d.id;
SELECT audit_chain_fill('notification_delivery_event', 'created_at', 'true');

CREATE TRIGGER "notification_delivery_event_chain" BEFORE INSERT ON "notification_delivery_event" FOR EACH ROW EXECUTE FUNCTION "audit_chain_link"();
CREATE TRIGGER "notification_delivery_event_append_only" BEFORE UPDATE OR DELETE ON "notification_delivery_event" FOR EACH ROW EXECUTE FUNCTION "refuse_log_rewrite"();
CREATE TRIGGER "notification_delivery_event_no_truncate" BEFORE TRUNCATE ON "notification_delivery_event" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_log_rewrite"();
CREATE TRIGGER "notification_delivery_record" AFTER INSERT ON "notification_delivery" FOR EACH ROW EXECUTE FUNCTION "notification_delivery_record"();
CREATE TRIGGER "notification_delivery_record_change" AFTER UPDATE ON "notification_delivery" FOR EACH ROW
  WHEN ((OLD.state, OLD.tries, OLD.last_answer, OLD.address, OLD.channel) IS DISTINCT FROM (NEW.state, NEW.tries, NEW.last_answer, NEW.address, NEW.channel))
  EXECUTE FUNCTION "notification_delivery_record"();
