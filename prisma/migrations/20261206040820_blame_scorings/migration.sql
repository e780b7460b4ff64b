-- DropTable
DROP TABLE "blame_evaluations";

-- CreateTable
CREATE TABLE "blame_scorings" (
    "key" TEXT NOT NULL,
    "project" TEXT,
    "system" TEXT,
    "trace_keys" TEXT[],
    "state" TEXT NOT NULL,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "result" JSONB,
    "asked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "blame_scorings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "blame_held_out_models" (
    "project_id" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "trace_key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "trained_on" INTEGER NOT NULL,
    "trained_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "model" JSONB NOT NULL,

    CONSTRAINT "blame_held_out_models_pkey" PRIMARY KEY ("project_id","method","trace_key")
);

-- CreateIndex
CREATE INDEX "blame_scorings_project_system_finished_at_idx" ON "blame_scorings"("project", "system", "finished_at");

-- AddForeignKey
ALTER TABLE "blame_held_out_models" ADD CONSTRAINT "blame_held_out_models_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
