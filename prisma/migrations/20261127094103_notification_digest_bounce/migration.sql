-- AlterTable
ALTER TABLE "notification_delivery" ADD COLUMN     "digest_id" INTEGER,
ADD COLUMN     "message_id" VARCHAR(250),
ADD COLUMN     "via_digest" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "notification_preference" ADD COLUMN     "digest" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "notification_digest" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "address" VARCHAR(254) NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "tries" INTEGER NOT NULL DEFAULT 0,
    "last_answer" VARCHAR(500),
    "message_id" VARCHAR(250),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_digest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_delivery_move" (
    "id" SERIAL NOT NULL,
    "delivery_id" INTEGER NOT NULL,
    "from_state" VARCHAR(16) NOT NULL,
    "to_state" VARCHAR(16) NOT NULL,
    "by_user_id" INTEGER,
    "by_name" VARCHAR(64) NOT NULL,
    "note" VARCHAR(1000),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_delivery_move_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_digest_user_id_day_key" ON "notification_digest"("user_id", "day");

-- CreateIndex
CREATE INDEX "notification_delivery_move_delivery_id_idx" ON "notification_delivery_move"("delivery_id");

-- CreateIndex
CREATE INDEX "notification_delivery_digest_id_idx" ON "notification_delivery"("digest_id");

-- CreateIndex
CREATE INDEX "notification_delivery_message_id_idx" ON "notification_delivery"("message_id");

-- CreateIndex
CREATE INDEX "notification_delivery_via_digest_state_digest_id_idx" ON "notification_delivery"("via_digest", "state", "digest_id");

-- AddForeignKey
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_digest_id_fkey" FOREIGN KEY ("digest_id") REFERENCES "notification_digest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_delivery_move" ADD CONSTRAINT "notification_delivery_move_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "notification_delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;
