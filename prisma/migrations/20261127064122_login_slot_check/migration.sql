-- AlterTable
ALTER TABLE "login_attempt" ADD COLUMN     "check_until" TIMESTAMP(3);
