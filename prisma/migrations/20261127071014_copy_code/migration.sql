-- Nullable, no default: the rows already chained keep their content (and their hashes); only copies
-- sent from now on get a code (modules/files/copy-code.ts), written into the row before it is chained.
-- AlterTable
ALTER TABLE "access_log" ADD COLUMN     "copy_code" VARCHAR(16);

-- CreateIndex
CREATE UNIQUE INDEX "access_log_copy_code_key" ON "access_log"("copy_code");
