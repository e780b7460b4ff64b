-- AlterTable
ALTER TABLE "queue_work" ADD COLUMN     "reason" TEXT;

-- AlterTable
ALTER TABLE "queues" ADD COLUMN     "closed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "rubrics" (
    "project_id" INTEGER NOT NULL,
    "family" TEXT NOT NULL,
    "negative" TEXT NOT NULL,
    "neutral" TEXT NOT NULL,
    "positive" TEXT NOT NULL,
    "updated_by_id" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rubrics_pkey" PRIMARY KEY ("project_id","family")
);

-- AddForeignKey
ALTER TABLE "rubrics" ADD CONSTRAINT "rubrics_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
