-- CreateTable
CREATE TABLE "sign_in_log" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER,
    "account" VARCHAR(64) NOT NULL,
    "source" VARCHAR(16) NOT NULL,
    "ip" VARCHAR(64) NOT NULL,
    "success" BOOLEAN NOT NULL,
    "code" VARCHAR(16) NOT NULL,
    "reason" VARCHAR(300) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sign_in_log_created_at_idx" ON "sign_in_log"("created_at");

-- CreateIndex
CREATE INDEX "sign_in_log_account_created_at_idx" ON "sign_in_log"("account", "created_at");
