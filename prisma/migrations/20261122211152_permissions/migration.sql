-- CreateTable
CREATE TABLE "permission_item" (
    "id" SERIAL NOT NULL,
    "kind" VARCHAR(8) NOT NULL,
    "page" VARCHAR(200) NOT NULL,
    "code" VARCHAR(64) NOT NULL,
    "label" VARCHAR(100) NOT NULL,
    "allowed_types" SMALLINT[],
    "masked_types" SMALLINT[] DEFAULT ARRAY[]::SMALLINT[],
    "declared" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "permission_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "permission_change_log" (
    "id" SERIAL NOT NULL,
    "item_id" INTEGER,
    "action" VARCHAR(8) NOT NULL,
    "kind" VARCHAR(8) NOT NULL,
    "page" VARCHAR(200) NOT NULL,
    "code" VARCHAR(64) NOT NULL,
    "label" VARCHAR(100) NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "user_id" INTEGER NOT NULL,
    "user_account" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "ip" VARCHAR(64),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "permission_change_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phone_contact" (
    "id" SERIAL NOT NULL,
    "kind" VARCHAR(12) NOT NULL,
    "supplier_code" VARCHAR(32),
    "name" VARCHAR(100) NOT NULL,
    "title" VARCHAR(100),
    "mobile" VARCHAR(32) NOT NULL,
    "email" VARCHAR(200),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phone_contact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phone_view_log" (
    "id" SERIAL NOT NULL,
    "viewer_id" INTEGER NOT NULL,
    "viewer_account" VARCHAR(64) NOT NULL,
    "viewer_name" VARCHAR(100) NOT NULL,
    "viewer_type" SMALLINT NOT NULL,
    "viewer_supplier_code" VARCHAR(32),
    "viewer_supplier_name" VARCHAR(200),
    "contact_id" INTEGER NOT NULL,
    "contact_kind" VARCHAR(12) NOT NULL,
    "contact_name" VARCHAR(100) NOT NULL,
    "contact_supplier_code" VARCHAR(32),
    "contact_supplier_name" VARCHAR(200),
    "masked_mobile" VARCHAR(32) NOT NULL,
    "page" VARCHAR(200) NOT NULL,
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(400),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phone_view_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "permission_item_page_idx" ON "permission_item"("page");

-- CreateIndex
CREATE UNIQUE INDEX "permission_item_kind_page_code_key" ON "permission_item"("kind", "page", "code");

-- CreateIndex
CREATE INDEX "permission_change_log_created_at_idx" ON "permission_change_log"("created_at");

-- CreateIndex
CREATE INDEX "permission_change_log_page_id_idx" ON "permission_change_log"("page", "id");

-- CreateIndex
CREATE INDEX "phone_contact_supplier_code_idx" ON "phone_contact"("supplier_code");

-- CreateIndex
CREATE INDEX "phone_contact_kind_name_idx" ON "phone_contact"("kind", "name");

-- CreateIndex
CREATE INDEX "phone_view_log_created_at_idx" ON "phone_view_log"("created_at");

-- CreateIndex
CREATE INDEX "phone_view_log_contact_id_id_idx" ON "phone_view_log"("contact_id", "id");

-- CreateIndex
CREATE INDEX "phone_view_log_viewer_id_id_idx" ON "phone_view_log"("viewer_id", "id");

-- Append-only logs (issue 14): the permission change log and the mobile number view log are
-- proof; no UPDATE or DELETE may rewrite them (TRUNCATE too, short of dropping the table).
CREATE FUNCTION "refuse_log_rewrite"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "permission_change_log_append_only" BEFORE UPDATE OR DELETE ON "permission_change_log" FOR EACH ROW EXECUTE FUNCTION "refuse_log_rewrite"();
CREATE TRIGGER "permission_change_log_no_truncate" BEFORE TRUNCATE ON "permission_change_log" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_log_rewrite"();
CREATE TRIGGER "phone_view_log_append_only" BEFORE UPDATE OR DELETE ON "phone_view_log" FOR EACH ROW EXECUTE FUNCTION "refuse_log_rewrite"();
CREATE TRIGGER "phone_view_log_no_truncate" BEFORE TRUNCATE ON "phone_view_log" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_log_rewrite"();
