-- CreateTable
CREATE TABLE "change_notice" (
    "id" SERIAL NOT NULL,
    "number" VARCHAR(20) NOT NULL,
    "title" VARCHAR(100) NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "description" VARCHAR(2000),
    "product_line_code" VARCHAR(32) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "due_date" DATE NOT NULL,
    "created_by_id" INTEGER NOT NULL,
    "created_by_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "published_at" TIMESTAMP(3),
    "published_by_name" VARCHAR(100),
    "closed_at" TIMESTAMP(3),
    "closed_by_name" VARCHAR(100),
    "withdrawn_at" TIMESTAMP(3),
    "withdrawn_by_name" VARCHAR(100),
    "withdraw_reason" VARCHAR(200),

    CONSTRAINT "change_notice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notice_number" (
    "year" INTEGER NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "notice_number_pkey" PRIMARY KEY ("year")
);

-- CreateTable
CREATE TABLE "notice_change" (
    "id" SERIAL NOT NULL,
    "notice_id" INTEGER NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,
    "standard_code" VARCHAR(64) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "old_file_id" INTEGER,
    "new_file_id" INTEGER NOT NULL,

    CONSTRAINT "notice_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notice_recipient" (
    "id" SERIAL NOT NULL,
    "notice_id" INTEGER NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "supplier_name" VARCHAR(200) NOT NULL,
    "basis" JSONB NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "read_at" TIMESTAMP(3),
    "read_by_account" VARCHAR(64),
    "read_by_name" VARCHAR(100),
    "read_ip" VARCHAR(64),
    "confirmed_at" TIMESTAMP(3),
    "confirmed_by_account" VARCHAR(64),
    "confirmed_by_name" VARCHAR(100),
    "confirmed_ip" VARCHAR(64),
    "remind_count" INTEGER NOT NULL DEFAULT 0,
    "last_reminded_at" TIMESTAMP(3),

    CONSTRAINT "notice_recipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notice_confirmed_file" (
    "recipient_id" INTEGER NOT NULL,
    "file_id" INTEGER NOT NULL,
    "standard_code" VARCHAR(64) NOT NULL,
    "version" VARCHAR(32) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "view_log_id" INTEGER NOT NULL,
    "viewed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notice_confirmed_file_pkey" PRIMARY KEY ("recipient_id","file_id")
);

-- CreateTable
CREATE TABLE "notice_event" (
    "id" SERIAL NOT NULL,
    "notice_id" INTEGER NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "supplier_code" VARCHAR(32),
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "ip" VARCHAR(64),
    "detail" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notice_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "change_notice_number_key" ON "change_notice"("number");

-- CreateIndex
CREATE INDEX "change_notice_status_id_idx" ON "change_notice"("status", "id");

-- CreateIndex
CREATE INDEX "change_notice_published_at_id_idx" ON "change_notice"("published_at", "id");

-- CreateIndex
CREATE INDEX "change_notice_product_line_code_id_idx" ON "change_notice"("product_line_code", "id");

-- CreateIndex
CREATE INDEX "change_notice_title_idx" ON "change_notice" USING GIN ("title" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "notice_change_new_file_id_idx" ON "notice_change"("new_file_id");

-- CreateIndex
CREATE INDEX "notice_change_standard_code_id_idx" ON "notice_change"("standard_code", "id");

-- CreateIndex
CREATE INDEX "notice_change_material_code_idx" ON "notice_change"("material_code");

-- CreateIndex
CREATE UNIQUE INDEX "notice_change_notice_id_new_file_id_key" ON "notice_change"("notice_id", "new_file_id");

-- CreateIndex
CREATE INDEX "notice_recipient_notice_id_status_idx" ON "notice_recipient"("notice_id", "status");

-- CreateIndex
CREATE INDEX "notice_recipient_supplier_code_status_notice_id_idx" ON "notice_recipient"("supplier_code", "status", "notice_id");

-- CreateIndex
CREATE UNIQUE INDEX "notice_recipient_notice_id_supplier_code_key" ON "notice_recipient"("notice_id", "supplier_code");

-- CreateIndex
CREATE INDEX "notice_event_notice_id_id_idx" ON "notice_event"("notice_id", "id");

-- AddForeignKey
ALTER TABLE "change_notice" ADD CONSTRAINT "change_notice_product_line_code_fkey" FOREIGN KEY ("product_line_code") REFERENCES "product_line"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_change" ADD CONSTRAINT "notice_change_notice_id_fkey" FOREIGN KEY ("notice_id") REFERENCES "change_notice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_change" ADD CONSTRAINT "notice_change_old_file_id_fkey" FOREIGN KEY ("old_file_id") REFERENCES "standard_file"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_change" ADD CONSTRAINT "notice_change_new_file_id_fkey" FOREIGN KEY ("new_file_id") REFERENCES "standard_file"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_recipient" ADD CONSTRAINT "notice_recipient_notice_id_fkey" FOREIGN KEY ("notice_id") REFERENCES "change_notice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_recipient" ADD CONSTRAINT "notice_recipient_supplier_code_fkey" FOREIGN KEY ("supplier_code") REFERENCES "supplier"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_confirmed_file" ADD CONSTRAINT "notice_confirmed_file_recipient_id_fkey" FOREIGN KEY ("recipient_id") REFERENCES "notice_recipient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_event" ADD CONSTRAINT "notice_event_notice_id_fkey" FOREIGN KEY ("notice_id") REFERENCES "change_notice"("id") ON DELETE CASCADE ON UPDATE CASCADE;
