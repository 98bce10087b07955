-- CreateTable
CREATE TABLE "product_line" (
    "code" VARCHAR(32) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "product_line_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "material" (
    "code" VARCHAR(40) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "spec" VARCHAR(200),
    "product_line_code" VARCHAR(32) NOT NULL,
    "purchaser" VARCHAR(100),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "material_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "supplier_material" (
    "supplier_code" VARCHAR(32) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,

    CONSTRAINT "supplier_material_pkey" PRIMARY KEY ("supplier_code","material_code")
);

-- CreateTable
CREATE TABLE "standard_file" (
    "id" SERIAL NOT NULL,
    "standard_code" VARCHAR(64) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "version" VARCHAR(32) NOT NULL,
    "version_no" INTEGER NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "category" VARCHAR(16) NOT NULL,
    "secret_level" VARCHAR(16) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "effective_date" DATE NOT NULL,
    "uploader_id" INTEGER NOT NULL,
    "uploader_name" VARCHAR(100) NOT NULL,
    "file_name" VARCHAR(255) NOT NULL,
    "file_size" INTEGER NOT NULL,
    "file_type" VARCHAR(8) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "remark" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "obsoleted_at" TIMESTAMP(3),
    "obsolete_reason" VARCHAR(200),

    CONSTRAINT "standard_file_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "empower_grant" (
    "id" SERIAL NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "valid_from" TIMESTAMP(3) NOT NULL,
    "valid_until" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_by" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "empower_grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "keepsecret_agreement" (
    "id" SERIAL NOT NULL,
    "version" INTEGER NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "content" TEXT NOT NULL,
    "effective_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "keepsecret_agreement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "keepsecret_acceptance" (
    "id" SERIAL NOT NULL,
    "agreement_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "accepted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "keepsecret_acceptance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_log" (
    "id" SERIAL NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "outcome" VARCHAR(8) NOT NULL DEFAULT 'OK',
    "reason" VARCHAR(200),
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "user_type" SMALLINT NOT NULL,
    "supplier_code" VARCHAR(32),
    "supplier_name" VARCHAR(200),
    "file_id" INTEGER,
    "standard_code" VARCHAR(64),
    "file_name" VARCHAR(255),
    "version" VARCHAR(32),
    "material_code" VARCHAR(40),
    "material_name" VARCHAR(200),
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(400),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "material_product_line_code_code_idx" ON "material"("product_line_code", "code");

-- CreateIndex
CREATE INDEX "supplier_material_material_code_idx" ON "supplier_material"("material_code");

-- CreateIndex
CREATE INDEX "standard_file_status_id_idx" ON "standard_file"("status", "id");

-- CreateIndex
CREATE INDEX "standard_file_material_code_status_id_idx" ON "standard_file"("material_code", "status", "id");

-- CreateIndex
CREATE INDEX "standard_file_standard_code_id_idx" ON "standard_file"("standard_code", "id");

-- CreateIndex
CREATE UNIQUE INDEX "standard_file_standard_code_version_no_key" ON "standard_file"("standard_code", "version_no");

-- CreateIndex
CREATE INDEX "empower_grant_supplier_code_material_code_valid_until_idx" ON "empower_grant"("supplier_code", "material_code", "valid_until");

-- CreateIndex
CREATE INDEX "empower_grant_material_code_idx" ON "empower_grant"("material_code");

-- CreateIndex
CREATE UNIQUE INDEX "keepsecret_agreement_version_key" ON "keepsecret_agreement"("version");

-- CreateIndex
CREATE UNIQUE INDEX "keepsecret_acceptance_agreement_id_user_id_key" ON "keepsecret_acceptance"("agreement_id", "user_id");

-- CreateIndex
CREATE INDEX "access_log_action_id_idx" ON "access_log"("action", "id");

-- CreateIndex
CREATE INDEX "access_log_action_supplier_code_id_idx" ON "access_log"("action", "supplier_code", "id");

-- CreateIndex
CREATE INDEX "access_log_action_material_code_id_idx" ON "access_log"("action", "material_code", "id");

-- CreateIndex
CREATE INDEX "access_log_action_standard_code_id_idx" ON "access_log"("action", "standard_code", "id");

-- CreateIndex
CREATE INDEX "access_log_file_id_action_user_id_idx" ON "access_log"("file_id", "action", "user_id");

-- AddForeignKey
ALTER TABLE "material" ADD CONSTRAINT "material_product_line_code_fkey" FOREIGN KEY ("product_line_code") REFERENCES "product_line"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_material" ADD CONSTRAINT "supplier_material_supplier_code_fkey" FOREIGN KEY ("supplier_code") REFERENCES "supplier"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "supplier_material" ADD CONSTRAINT "supplier_material_material_code_fkey" FOREIGN KEY ("material_code") REFERENCES "material"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "standard_file" ADD CONSTRAINT "standard_file_material_code_fkey" FOREIGN KEY ("material_code") REFERENCES "material"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_grant" ADD CONSTRAINT "empower_grant_supplier_code_fkey" FOREIGN KEY ("supplier_code") REFERENCES "supplier"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_grant" ADD CONSTRAINT "empower_grant_material_code_fkey" FOREIGN KEY ("material_code") REFERENCES "material"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "keepsecret_acceptance" ADD CONSTRAINT "keepsecret_acceptance_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "keepsecret_agreement"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
