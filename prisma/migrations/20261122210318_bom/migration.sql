-- CreateTable
CREATE TABLE "bom_line" (
    "id" SERIAL NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "parent_id" INTEGER,
    "parent_code" VARCHAR(40) NOT NULL,
    "level" SMALLINT NOT NULL,
    "component_code" VARCHAR(40) NOT NULL,
    "component_name" VARCHAR(200) NOT NULL,
    "spec" VARCHAR(200),
    "quantity" DECIMAL(14,4) NOT NULL,
    "unit" VARCHAR(16) NOT NULL,
    "has_drawing" BOOLEAN NOT NULL DEFAULT false,
    "vendor_name" VARCHAR(200) NOT NULL,
    "vendor_credit_code" VARCHAR(18) NOT NULL,
    "vendor_region" VARCHAR(100),
    "vendor_contact" VARCHAR(50),
    "vendor_mobile" VARCHAR(20),
    "sort_no" INTEGER NOT NULL,
    "updated_by" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bom_line_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bom_event" (
    "id" SERIAL NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "written" INTEGER NOT NULL DEFAULT 0,
    "detail" VARCHAR(500),
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bom_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bom_line_parent_id_idx" ON "bom_line"("parent_id");

-- CreateIndex
CREATE INDEX "bom_line_vendor_credit_code_idx" ON "bom_line"("vendor_credit_code");

-- CreateIndex
CREATE INDEX "bom_line_component_code_idx" ON "bom_line"("component_code");

-- CreateIndex
CREATE UNIQUE INDEX "bom_line_supplier_code_material_code_parent_code_component__key" ON "bom_line"("supplier_code", "material_code", "parent_code", "component_code");

-- CreateIndex
CREATE INDEX "bom_event_supplier_code_material_code_id_idx" ON "bom_event"("supplier_code", "material_code", "id");

-- AddForeignKey
ALTER TABLE "bom_line" ADD CONSTRAINT "bom_line_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "bom_line"("id") ON DELETE CASCADE ON UPDATE CASCADE;
