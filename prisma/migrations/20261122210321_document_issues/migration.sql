-- CreateTable
CREATE TABLE "problem_type" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(50) NOT NULL,
    "role" VARCHAR(16) NOT NULL,
    "response_days" SMALLINT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "problem_type_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sqegx_role" (
    "id" SERIAL NOT NULL,
    "product_line_code" VARCHAR(32) NOT NULL,
    "role" VARCHAR(16) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_by_name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sqegx_role_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_issue_number" (
    "year" INTEGER NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "document_issue_number_pkey" PRIMARY KEY ("year")
);

-- CreateTable
CREATE TABLE "document_issue" (
    "id" SERIAL NOT NULL,
    "number" VARCHAR(20) NOT NULL,
    "supplier_code" VARCHAR(32) NOT NULL,
    "supplier_name" VARCHAR(200) NOT NULL,
    "file_id" INTEGER NOT NULL,
    "standard_code" VARCHAR(64) NOT NULL,
    "version" VARCHAR(32) NOT NULL,
    "material_code" VARCHAR(40) NOT NULL,
    "product_line_code" VARCHAR(32) NOT NULL,
    "problem_type_id" INTEGER NOT NULL,
    "title" VARCHAR(100) NOT NULL,
    "description" VARCHAR(2000) NOT NULL,
    "purchaser" VARCHAR(100),
    "status" VARCHAR(16) NOT NULL,
    "asked_by_id" INTEGER NOT NULL,
    "asked_by_account" VARCHAR(64) NOT NULL,
    "asked_by_name" VARCHAR(100) NOT NULL,
    "assignee_id" INTEGER,
    "assignee_name" VARCHAR(100),
    "due_date" DATE,
    "submitted_at" TIMESTAMP(3),
    "answered_at" TIMESTAMP(3),
    "closed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "document_issue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_issue_message" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "from_status" VARCHAR(16),
    "to_status" VARCHAR(16) NOT NULL,
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "user_type" SMALLINT NOT NULL,
    "text" VARCHAR(2000),
    "notice_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_issue_message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_issue_attachment" (
    "id" SERIAL NOT NULL,
    "issue_id" INTEGER,
    "message_id" INTEGER,
    "file_name" VARCHAR(255) NOT NULL,
    "file_size" INTEGER NOT NULL,
    "file_type" VARCHAR(8) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "uploaded_by_id" INTEGER NOT NULL,
    "uploaded_by_name" VARCHAR(100) NOT NULL,
    "supplier_code" VARCHAR(32),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_issue_attachment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "problem_type_name_key" ON "problem_type"("name");

-- CreateIndex
CREATE INDEX "sqegx_role_user_id_idx" ON "sqegx_role"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "sqegx_role_product_line_code_role_user_id_key" ON "sqegx_role"("product_line_code", "role", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "document_issue_number_key" ON "document_issue"("number");

-- CreateIndex
CREATE INDEX "document_issue_supplier_code_id_idx" ON "document_issue"("supplier_code", "id");

-- CreateIndex
CREATE INDEX "document_issue_status_id_idx" ON "document_issue"("status", "id");

-- CreateIndex
CREATE INDEX "document_issue_assignee_id_status_idx" ON "document_issue"("assignee_id", "status");

-- CreateIndex
CREATE INDEX "document_issue_problem_type_id_idx" ON "document_issue"("problem_type_id");

-- CreateIndex
CREATE INDEX "document_issue_message_issue_id_id_idx" ON "document_issue_message"("issue_id", "id");

-- CreateIndex
CREATE INDEX "document_issue_attachment_issue_id_idx" ON "document_issue_attachment"("issue_id");

-- CreateIndex
CREATE INDEX "document_issue_attachment_message_id_idx" ON "document_issue_attachment"("message_id");

-- CreateIndex
CREATE INDEX "document_issue_attachment_uploaded_by_id_issue_id_idx" ON "document_issue_attachment"("uploaded_by_id", "issue_id");

-- CreateIndex
CREATE INDEX "document_issue_attachment_sha256_idx" ON "document_issue_attachment"("sha256");

-- AddForeignKey
ALTER TABLE "document_issue" ADD CONSTRAINT "document_issue_problem_type_id_fkey" FOREIGN KEY ("problem_type_id") REFERENCES "problem_type"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_issue_message" ADD CONSTRAINT "document_issue_message_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "document_issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_issue_attachment" ADD CONSTRAINT "document_issue_attachment_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "document_issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_issue_attachment" ADD CONSTRAINT "document_issue_attachment_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "document_issue_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
