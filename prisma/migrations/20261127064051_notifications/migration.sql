-- AlterTable
ALTER TABLE "app_user" ADD COLUMN     "email" VARCHAR(254);

-- CreateTable
CREATE TABLE "notification" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "kind" VARCHAR(32) NOT NULL,
    "subject" VARCHAR(200) NOT NULL,
    "body" VARCHAR(1000),
    "link_path" VARCHAR(300) NOT NULL,
    "due_date" DATE,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMP(3),

    CONSTRAINT "notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_delivery" (
    "id" SERIAL NOT NULL,
    "notification_id" INTEGER NOT NULL,
    "channel" VARCHAR(16) NOT NULL,
    "address" VARCHAR(254) NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "tries" INTEGER NOT NULL DEFAULT 0,
    "last_answer" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_user_id_id_idx" ON "notification"("user_id", "id");

-- CreateIndex
CREATE INDEX "notification_user_id_read_at_idx" ON "notification"("user_id", "read_at");

-- CreateIndex
CREATE INDEX "notification_delivery_state_id_idx" ON "notification_delivery"("state", "id");

-- CreateIndex
CREATE INDEX "notification_delivery_notification_id_idx" ON "notification_delivery"("notification_id");

-- AddForeignKey
ALTER TABLE "notification_delivery" ADD CONSTRAINT "notification_delivery_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;
