-- AlterTable
ALTER TABLE "change_notice" ADD COLUMN     "open_recipient_count" INTEGER NOT NULL DEFAULT 0;

-- Backfill: the recipients that still owe a confirmation, for every notice that went out; a
-- withdrawn notice owes nothing (no one may confirm it), a draft has no recipients.
UPDATE "change_notice" n SET "open_recipient_count" = o.open
FROM (SELECT r.notice_id, count(*)::int AS open FROM "notice_recipient" r WHERE r.status <> 'CONFIRMED' GROUP BY r.notice_id) o
WHERE o.notice_id = n.id AND n.status IN ('PUBLISHED', 'CLOSED');
