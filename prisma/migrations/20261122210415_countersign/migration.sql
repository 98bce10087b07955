-- CreateTable
CREATE TABLE "countersign" (
    "id" SERIAL NOT NULL,
    "number" VARCHAR(20) NOT NULL,
    "title" VARCHAR(100) NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "notice_id" INTEGER,
    "items" VARCHAR(2000) NOT NULL,
    "due_date" DATE NOT NULL,
    "file_ids" INTEGER[],
    "signer_ids" INTEGER[],
    "status" VARCHAR(20) NOT NULL,
    "round" INTEGER NOT NULL DEFAULT 0,
    "step" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" INTEGER NOT NULL,
    "created_by_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "issued_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "cancelled_at" TIMESTAMP(3),
    "cancel_reason" VARCHAR(200),

    CONSTRAINT "countersign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "countersign_round" (
    "countersign_id" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "content" JSONB NOT NULL,
    "content_sha256" CHAR(64) NOT NULL,
    "issued_at" TIMESTAMP(3) NOT NULL,
    "issued_by_name" VARCHAR(100) NOT NULL,
    "outcome" VARCHAR(12),
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "countersign_round_pkey" PRIMARY KEY ("countersign_id","round")
);

-- CreateTable
CREATE TABLE "countersign_signature" (
    "id" SERIAL NOT NULL,
    "countersign_id" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "supplier_code" VARCHAR(32),
    "supplier_name" VARCHAR(200),
    "department" VARCHAR(100),
    "decision" VARCHAR(12) NOT NULL,
    "comment" VARCHAR(500),
    "content_sha256" CHAR(64) NOT NULL,
    "ip" VARCHAR(64),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "countersign_signature_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "countersign_event" (
    "id" SERIAL NOT NULL,
    "countersign_id" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "action" VARCHAR(12) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "ip" VARCHAR(64),
    "detail" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "countersign_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "countersign_number_key" ON "countersign"("number");

-- CreateIndex
CREATE INDEX "countersign_supplier_code_id_idx" ON "countersign"("supplier_code", "id");

-- CreateIndex
CREATE INDEX "countersign_status_id_idx" ON "countersign"("status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "countersign_signature_countersign_id_round_step_key" ON "countersign_signature"("countersign_id", "round", "step");

-- CreateIndex
CREATE INDEX "countersign_event_countersign_id_id_idx" ON "countersign_event"("countersign_id", "id");

-- AddForeignKey
ALTER TABLE "countersign_round" ADD CONSTRAINT "countersign_round_countersign_id_fkey" FOREIGN KEY ("countersign_id") REFERENCES "countersign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "countersign_signature" ADD CONSTRAINT "countersign_signature_countersign_id_fkey" FOREIGN KEY ("countersign_id") REFERENCES "countersign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "countersign_event" ADD CONSTRAINT "countersign_event_countersign_id_fkey" FOREIGN KEY ("countersign_id") REFERENCES "countersign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
