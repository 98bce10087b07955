-- AlterTable
ALTER TABLE "notification" ADD COLUMN     "dedupe_key" VARCHAR(64);

-- CreateIndex
CREATE UNIQUE INDEX "notification_user_id_dedupe_key_key" ON "notification"("user_id", "dedupe_key");
