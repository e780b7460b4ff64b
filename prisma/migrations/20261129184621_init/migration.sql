-- CreateEnum
CREATE TYPE "Topology" AS ENUM ('centralized', 'planner_executor_critic', 'debate', 'swarm', 'hierarchical', 'harness', 'mixed', 'unknown');

-- CreateEnum
CREATE TYPE "EventType" AS ENUM ('orchestrator_decision', 'spawn', 'despawn', 'message', 'tool_call', 'tool_result', 'return', 'aggregate', 'human_intervention', 'safety_event');

-- CreateEnum
CREATE TYPE "EdgeType" AS ENUM ('temporal', 'causal', 'spawn', 'message', 'tool_dependency', 'return', 'aggregate', 'safety_flow');

-- CreateEnum
CREATE TYPE "Decision" AS ENUM ('spawn', 'delegate', 'communicate', 'aggregate', 'stop', 'continue');

-- CreateEnum
CREATE TYPE "StopReason" AS ENUM ('complete', 'quality_met', 'budget_exhausted', 'max_turns', 'error', 'user', 'other');

-- CreateEnum
CREATE TYPE "Verdict" AS ENUM ('premature', 'late', 'unknown', 'ok');

-- CreateTable
CREATE TABLE "projects" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "traces" (
    "id" SERIAL NOT NULL,
    "trace_id" TEXT NOT NULL,
    "project_id" INTEGER NOT NULL,
    "task_id" TEXT NOT NULL,
    "system" TEXT,
    "topology" "Topology",
    "group_id" TEXT,
    "metadata" JSONB,
    "rewards" JSONB NOT NULL,
    "costs" JSONB NOT NULL,
    "reported_metrics" JSONB,
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "event_count" INTEGER NOT NULL,
    "edge_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reported_e1" INTEGER,
    "e1" INTEGER,
    "critical_steps" INTEGER,
    "step_parallelism" DOUBLE PRECISION,
    "busy_time" DOUBLE PRECISION,
    "makespan" DOUBLE PRECISION,
    "speedup" DOUBLE PRECISION,
    "max_concurrency" INTEGER,
    "efficiency" DOUBLE PRECISION,
    "useful_agent_utilization" DOUBLE PRECISION,
    "message_redundancy" DOUBLE PRECISION,
    "dead_message_rate" DOUBLE PRECISION,
    "aggregate_diversity" DOUBLE PRECISION,
    "protocol_overhead" DOUBLE PRECISION,
    "error_amplification" DOUBLE PRECISION,
    "tainted_events" INTEGER,
    "terminal_tainted" BOOLEAN,
    "stop_reason" "StopReason",
    "stop_t" DOUBLE PRECISION,
    "tail_events" INTEGER,
    "tail_tokens" DOUBLE PRECISION,
    "wasted_work_ratio" DOUBLE PRECISION,
    "verdict" "Verdict",
    "metrics_version" TEXT,

    CONSTRAINT "traces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "trace_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "pos" INTEGER NOT NULL,
    "event_id" TEXT NOT NULL,
    "t" DOUBLE PRECISION NOT NULL,
    "t_end" DOUBLE PRECISION,
    "type" "EventType" NOT NULL,
    "agent" TEXT NOT NULL,
    "role" TEXT,
    "from_agent" TEXT,
    "to_agent" TEXT,
    "tool" TEXT,
    "content_ref" TEXT,
    "trusted" BOOLEAN,
    "tokens" DOUBLE PRECISION,
    "status" TEXT,
    "decision" "Decision",
    "reason" "StopReason",
    "rewards" JSONB,
    "extra" JSONB,
    "content_length" INTEGER,

    CONSTRAINT "events_pkey" PRIMARY KEY ("trace_id","seq")
);

-- CreateTable
CREATE TABLE "event_content" (
    "trace_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "event_content_pkey" PRIMARY KEY ("trace_id","seq")
);

-- CreateTable
CREATE TABLE "edges" (
    "trace_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "src" INTEGER NOT NULL,
    "dst" INTEGER NOT NULL,
    "type" "EdgeType" NOT NULL,

    CONSTRAINT "edges_pkey" PRIMARY KEY ("trace_id","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "projects_name_key" ON "projects"("name");

-- CreateIndex
CREATE UNIQUE INDEX "traces_trace_id_key" ON "traces"("trace_id");

-- CreateIndex
CREATE INDEX "traces_project_id_id_idx" ON "traces"("project_id", "id");

-- CreateIndex
CREATE INDEX "traces_system_id_idx" ON "traces"("system", "id");

-- CreateIndex
CREATE INDEX "traces_task_id_id_idx" ON "traces"("task_id", "id");

-- CreateIndex
CREATE INDEX "traces_group_id_id_idx" ON "traces"("group_id", "id");

-- CreateIndex
CREATE INDEX "traces_topology_id_idx" ON "traces"("topology", "id");

-- CreateIndex
CREATE INDEX "traces_verdict_id_idx" ON "traces"("verdict", "id");

-- CreateIndex
CREATE INDEX "events_trace_id_t_idx" ON "events"("trace_id", "t");

-- CreateIndex
CREATE UNIQUE INDEX "events_trace_id_event_id_key" ON "events"("trace_id", "event_id");

-- CreateIndex
CREATE INDEX "edges_trace_id_dst_idx" ON "edges"("trace_id", "dst");

-- AddForeignKey
ALTER TABLE "traces" ADD CONSTRAINT "traces_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "event_content" ADD CONSTRAINT "event_content_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "edges" ADD CONSTRAINT "edges_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
