-- CreateTable
CREATE TABLE "datasets" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "filter_key" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "traces_done" INTEGER NOT NULL DEFAULT 0,
    "traces_total" INTEGER NOT NULL DEFAULT 0,
    "manifest" JSONB,
    "diff" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dataset_files" (
    "dataset_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,

    CONSTRAINT "dataset_files_pkey" PRIMARY KEY ("dataset_id","path")
);

-- CreateTable
CREATE TABLE "dataset_rows" (
    "dataset_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "dataset_rows_pkey" PRIMARY KEY ("dataset_id","key")
);

-- CreateIndex
CREATE INDEX "datasets_filter_key_id_idx" ON "datasets"("filter_key", "id");

-- AddForeignKey
ALTER TABLE "dataset_files" ADD CONSTRAINT "dataset_files_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dataset_rows" ADD CONSTRAINT "dataset_rows_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
