-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "supplier" (
    "code" VARCHAR(32) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "supplier_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "app_user" (
    "id" SERIAL NOT NULL,
    "account" VARCHAR(64) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "nick" VARCHAR(100) NOT NULL,
    "type" SMALLINT NOT NULL,
    "supplier_code" VARCHAR(32),
    "mobile" VARCHAR(32),
    "password_hash" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "menu_entry" (
    "id" INTEGER NOT NULL,
    "cn" VARCHAR(100) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "icon" VARCHAR(64),
    "router" VARCHAR(200) NOT NULL,
    "mpid" INTEGER,
    "sort" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "menu_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "menu_grant" (
    "user_type" SMALLINT NOT NULL,
    "menu_id" INTEGER NOT NULL,

    CONSTRAINT "menu_grant_pkey" PRIMARY KEY ("user_type","menu_id")
);

-- CreateTable
CREATE TABLE "http_session" (
    "sid" VARCHAR(128) NOT NULL,
    "data" JSONB NOT NULL,
    "user_id" INTEGER,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "http_session_pkey" PRIMARY KEY ("sid")
);

-- CreateTable
CREATE TABLE "login_attempt" (
    "id" SERIAL NOT NULL,
    "account" VARCHAR(64) NOT NULL,
    "ip" VARCHAR(64) NOT NULL,
    "success" BOOLEAN NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "visit_event" (
    "id" SERIAL NOT NULL,
    "event" VARCHAR(32) NOT NULL DEFAULT 'user_visit',
    "user_id" INTEGER NOT NULL,
    "user_type" SMALLINT NOT NULL,
    "user_code" VARCHAR(64) NOT NULL,
    "user_name" VARCHAR(100) NOT NULL,
    "menu_name" VARCHAR(100) NOT NULL,
    "path" VARCHAR(300) NOT NULL,
    "ip" VARCHAR(64),
    "user_agent" VARCHAR(400),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "visit_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "app_user_account_key" ON "app_user"("account");

-- CreateIndex
CREATE INDEX "app_user_type_idx" ON "app_user"("type");

-- CreateIndex
CREATE INDEX "app_user_supplier_code_idx" ON "app_user"("supplier_code");

-- CreateIndex
CREATE UNIQUE INDEX "menu_entry_router_key" ON "menu_entry"("router");

-- CreateIndex
CREATE INDEX "http_session_expires_at_idx" ON "http_session"("expires_at");

-- CreateIndex
CREATE INDEX "http_session_user_id_idx" ON "http_session"("user_id");

-- CreateIndex
CREATE INDEX "login_attempt_account_created_at_idx" ON "login_attempt"("account", "created_at");

-- CreateIndex
CREATE INDEX "login_attempt_ip_created_at_idx" ON "login_attempt"("ip", "created_at");

-- CreateIndex
CREATE INDEX "visit_event_created_at_idx" ON "visit_event"("created_at");

-- CreateIndex
CREATE INDEX "visit_event_user_code_created_at_idx" ON "visit_event"("user_code", "created_at");

-- AddForeignKey
ALTER TABLE "app_user" ADD CONSTRAINT "app_user_supplier_code_fkey" FOREIGN KEY ("supplier_code") REFERENCES "supplier"("code") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "menu_grant" ADD CONSTRAINT "menu_grant_menu_id_fkey" FOREIGN KEY ("menu_id") REFERENCES "menu_entry"("id") ON DELETE CASCADE ON UPDATE CASCADE;
