-- AlterTable
ALTER TABLE "empower_grant" ADD COLUMN     "application_id" INTEGER,
ADD COLUMN     "approved_at" TIMESTAMP(3),
ADD COLUMN     "approver_account" VARCHAR(64),
ADD COLUMN     "approver_id" INTEGER,
ADD COLUMN     "approver_name" VARCHAR(100),
ADD COLUMN     "imported" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "revoke_reason" VARCHAR(200),
ADD COLUMN     "revoked_by_account" VARCHAR(64),
ADD COLUMN     "revoked_by_id" INTEGER,
ADD COLUMN     "revoked_by_name" VARCHAR(100);

-- Grants made before applications existed came from elsewhere: they are imported.
UPDATE "empower_grant" SET "imported" = true WHERE "application_id" IS NULL;

-- CreateTable
CREATE TABLE "empower_application" (
    "id" SERIAL NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "valid_from" DATE NOT NULL,
    "valid_until" DATE NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "applicant_id" INTEGER NOT NULL,
    "applicant_account" VARCHAR(64) NOT NULL,
    "applicant_name" VARCHAR(100) NOT NULL,
    "renews_grant_id" INTEGER,
    "submitted_at" TIMESTAMP(3),
    "approved_from" DATE,
    "approved_until" DATE,
    "decider_id" INTEGER,
    "decider_account" VARCHAR(64),
    "decider_name" VARCHAR(100),
    "decided_at" TIMESTAMP(3),
    "decision_comment" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "empower_application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "empower_application_material" (
    "application_id" INTEGER NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "approved" BOOLEAN,

    CONSTRAINT "empower_application_material_pkey" PRIMARY KEY ("application_id","material_code")
);

-- CreateTable
CREATE TABLE "empower_audit" (
    "id" SERIAL NOT NULL,
    "application_id" INTEGER NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "from_status" VARCHAR(16),
    "to_status" VARCHAR(16) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "user_type" SMALLINT NOT NULL,
    "ip" VARCHAR(64),
    "comment" VARCHAR(500),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "empower_audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "empower_application_supplier_code_id_idx" ON "empower_application"("supplier_code", "id");

-- CreateIndex
CREATE INDEX "empower_application_status_id_idx" ON "empower_application"("status", "id");

-- CreateIndex
CREATE INDEX "empower_application_material_material_code_idx" ON "empower_application_material"("material_code");

-- CreateIndex
CREATE INDEX "empower_audit_application_id_id_idx" ON "empower_audit"("application_id", "id");

-- CreateIndex
CREATE INDEX "empower_grant_valid_until_idx" ON "empower_grant"("valid_until");

-- CreateIndex
CREATE INDEX "empower_grant_application_id_idx" ON "empower_grant"("application_id");

-- AddForeignKey
ALTER TABLE "empower_grant" ADD CONSTRAINT "empower_grant_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "empower_application"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_application" ADD CONSTRAINT "empower_application_supplier_code_fkey" FOREIGN KEY ("supplier_code") REFERENCES "supplier"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_application_material" ADD CONSTRAINT "empower_application_material_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "empower_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_application_material" ADD CONSTRAINT "empower_application_material_material_code_fkey" FOREIGN KEY ("material_code") REFERENCES "material"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "empower_audit" ADD CONSTRAINT "empower_audit_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "empower_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;
