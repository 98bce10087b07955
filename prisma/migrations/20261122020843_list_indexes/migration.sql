-- CreateIndex
CREATE INDEX "standard_file_effective_date_id_idx" ON "standard_file"("effective_date", "id");

-- CreateIndex
CREATE INDEX "access_log_action_created_at_idx" ON "access_log"("action", "created_at");
