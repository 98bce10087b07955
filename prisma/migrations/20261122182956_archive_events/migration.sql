-- CreateTable
CREATE TABLE "archive_event" (
    "id" SERIAL NOT NULL,
    "action" VARCHAR(24) NOT NULL,
    "file_id" INTEGER NOT NULL,
    "standard_code" VARCHAR(64) NOT NULL,
    "version" VARCHAR(32) NOT NULL,
    "reason" VARCHAR(200),
    "user_id" INTEGER NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "archive_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "archive_event_standard_code_id_idx" ON "archive_event"("standard_code", "id");
