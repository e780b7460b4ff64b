-- CreateTable
CREATE TABLE "interventions" (
    "id" SERIAL NOT NULL,
    "trace_id" INTEGER NOT NULL,
    "call_id" TEXT NOT NULL,
    "call_index" INTEGER NOT NULL,
    "edit" JSONB NOT NULL,
    "intent" TEXT NOT NULL DEFAULT 'correct',
    "samples" INTEGER NOT NULL,
    "params" JSONB,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "interventions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replay_runs" (
    "project_id" INTEGER NOT NULL,
    "run_key" TEXT NOT NULL,
    "source_trace_id" INTEGER NOT NULL,
    "intervention_id" INTEGER,
    "sample" INTEGER NOT NULL DEFAULT 1,
    "state" JSONB NOT NULL,
    "served" INTEGER NOT NULL DEFAULT 0,
    "forwarded" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replay_runs_pkey" PRIMARY KEY ("project_id","run_key")
);

-- CreateIndex
CREATE INDEX "interventions_trace_id_idx" ON "interventions"("trace_id");

-- CreateIndex
CREATE INDEX "replay_runs_source_trace_id_idx" ON "replay_runs"("source_trace_id");

-- CreateIndex
CREATE INDEX "replay_runs_intervention_id_idx" ON "replay_runs"("intervention_id");

-- AddForeignKey
ALTER TABLE "interventions" ADD CONSTRAINT "interventions_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_source_trace_id_fkey" FOREIGN KEY ("source_trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "replay_runs" ADD CONSTRAINT "replay_runs_intervention_id_fkey" FOREIGN KEY ("intervention_id") REFERENCES "interventions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
