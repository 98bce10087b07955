-- CreateTable
CREATE TABLE "database_identity" (
    "singleton" BOOLEAN NOT NULL DEFAULT true,
    "database_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "database_identity_pkey" PRIMARY KEY ("singleton")
);
