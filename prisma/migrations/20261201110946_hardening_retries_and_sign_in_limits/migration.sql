-- AlterTable
ALTER TABLE "otel_traces" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sign_in_failures" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "failed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sign_in_failures_key_failed_at_idx" ON "sign_in_failures"("key", "failed_at");
