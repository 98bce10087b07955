-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "standard_file_name_idx" ON "standard_file" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "access_log_user_account_idx" ON "access_log" USING GIN ("user_account" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "access_log_user_name_idx" ON "access_log" USING GIN ("user_name" gin_trgm_ops);
