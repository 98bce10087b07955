-- CreateTable
CREATE TABLE "access_delivery" (
    "id" SERIAL NOT NULL,
    "access_log_id" INTEGER NOT NULL,
    "complete" BOOLEAN NOT NULL,
    "bytes_sent" BIGINT NOT NULL,
    "bytes_total" BIGINT NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "access_delivery_access_log_id_key" ON "access_delivery"("access_log_id");

-- AddForeignKey
ALTER TABLE "access_delivery" ADD CONSTRAINT "access_delivery_access_log_id_fkey" FOREIGN KEY ("access_log_id") REFERENCES "access_log"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
