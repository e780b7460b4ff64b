-- CreateTable
CREATE TABLE "presets" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "weights" JSONB NOT NULL,
    "token_budget" DOUBLE PRECISION NOT NULL,
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "presets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "presets_name_key" ON "presets"("name");

-- Built-in presets (SPEC.md section 2); an integration test checks they equal lib/rewards/presets.ts
INSERT INTO "presets" ("name", "weights", "token_budget", "builtin") VALUES
    ('code_generation', '{"task_success":1,"step_quality":0.5,"tool_use_correctness":0.3,"orchestration":0,"parallelism_speedup":0,"communication_efficiency":0,"stop_decision":0,"cost":-0.1}', 100000, true),
    ('multi_source_research', '{"task_success":1,"step_quality":0,"tool_use_correctness":0,"orchestration":0.4,"parallelism_speedup":0.3,"communication_efficiency":0.2,"stop_decision":0,"cost":0}', 100000, true),
    ('customer_support', '{"task_success":1,"step_quality":0.6,"tool_use_correctness":0,"orchestration":0,"parallelism_speedup":0,"communication_efficiency":0,"stop_decision":0.3,"cost":-0.2}', 100000, true),
    ('uniform', '{"task_success":1,"step_quality":1,"tool_use_correctness":1,"orchestration":1,"parallelism_speedup":1,"communication_efficiency":1,"stop_decision":1,"cost":-1}', 100000, true);
