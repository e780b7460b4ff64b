-- CreateTable
CREATE TABLE "decisive_errors" (
    "id" SERIAL NOT NULL,
    "trace_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "reason" TEXT,
    "annotator_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisive_errors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decisive_error_revisions" (
    "id" SERIAL NOT NULL,
    "decisive_error_id" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisive_error_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decisive_error_adjudications" (
    "trace_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "reason" TEXT,
    "adjudicator_id" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisive_error_adjudications_pkey" PRIMARY KEY ("trace_key")
);

-- CreateIndex
CREATE UNIQUE INDEX "decisive_errors_trace_key_annotator_id_key" ON "decisive_errors"("trace_key", "annotator_id");

-- CreateIndex
CREATE INDEX "decisive_error_revisions_decisive_error_id_idx" ON "decisive_error_revisions"("decisive_error_id");

-- AddForeignKey
ALTER TABLE "decisive_errors" ADD CONSTRAINT "decisive_errors_annotator_id_fkey" FOREIGN KEY ("annotator_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decisive_error_revisions" ADD CONSTRAINT "decisive_error_revisions_decisive_error_id_fkey" FOREIGN KEY ("decisive_error_id") REFERENCES "decisive_errors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
