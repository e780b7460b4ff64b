-- CreateTable
CREATE TABLE "judges" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "api_key_cipher" TEXT,
    "families" TEXT[],
    "event_types" TEXT[],
    "prompts" JSONB NOT NULL DEFAULT '{}',
    "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "max_tokens" INTEGER NOT NULL DEFAULT 200,
    "json_schema" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "judges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_runs" (
    "id" SERIAL NOT NULL,
    "judge_id" INTEGER NOT NULL,
    "source" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "token_budget" INTEGER,
    "deadline" TIMESTAMPTZ(3),
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "tokens_in" INTEGER NOT NULL DEFAULT 0,
    "tokens_out" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "judge_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_units" (
    "run_id" INTEGER NOT NULL,
    "trace_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL DEFAULT '',
    "family" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "claimed_at" TIMESTAMPTZ(3),

    CONSTRAINT "judge_units_pkey" PRIMARY KEY ("run_id","trace_key","event_id","family")
);

-- CreateTable
CREATE TABLE "judge_labels" (
    "id" SERIAL NOT NULL,
    "judge_id" INTEGER NOT NULL,
    "run_id" INTEGER,
    "trace_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL DEFAULT '',
    "family" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "reason" TEXT,
    "raw" TEXT,
    "error" TEXT,
    "current" BOOLEAN NOT NULL DEFAULT false,
    "model" TEXT NOT NULL,
    "prompt_hash" TEXT NOT NULL,
    "tokens_in" INTEGER,
    "tokens_out" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "judge_labels_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "judges_project_id_name_key" ON "judges"("project_id", "name");

-- CreateIndex
CREATE INDEX "judge_units_run_id_state_idx" ON "judge_units"("run_id", "state");

-- CreateIndex
CREATE INDEX "judge_labels_trace_key_family_idx" ON "judge_labels"("trace_key", "family");

-- CreateIndex
CREATE INDEX "judge_labels_judge_id_family_current_idx" ON "judge_labels"("judge_id", "family", "current");

-- AddForeignKey
ALTER TABLE "judges" ADD CONSTRAINT "judges_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_runs" ADD CONSTRAINT "judge_runs_judge_id_fkey" FOREIGN KEY ("judge_id") REFERENCES "judges"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_units" ADD CONSTRAINT "judge_units_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "judge_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_labels" ADD CONSTRAINT "judge_labels_judge_id_fkey" FOREIGN KEY ("judge_id") REFERENCES "judges"("id") ON DELETE CASCADE ON UPDATE CASCADE;
