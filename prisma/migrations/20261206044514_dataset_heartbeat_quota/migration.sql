-- AlterTable
ALTER TABLE "datasets" ADD COLUMN     "created_by" INTEGER,
ADD COLUMN     "heartbeat_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "datasets_created_by_idx" ON "datasets"("created_by");
