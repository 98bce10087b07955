-- CreateTable
CREATE TABLE "notification_preference" (
    "user_id" INTEGER NOT NULL,
    "muted_kinds" VARCHAR(32)[] DEFAULT ARRAY[]::VARCHAR(32)[],
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_preference_pkey" PRIMARY KEY ("user_id")
);
