-- CreateTable
CREATE TABLE "trace_decisions" (
    "trace_id" INTEGER NOT NULL,
    "spawn_taken" BOOLEAN NOT NULL,
    "agents_spawned" INTEGER NOT NULL,
    "delegate_taken" BOOLEAN NOT NULL,
    "delegate_role_buckets" TEXT[],
    "communicate_taken" BOOLEAN NOT NULL,
    "messages" INTEGER NOT NULL,
    "messages_per_agent" DOUBLE PRECISION NOT NULL,
    "aggregate_taken" BOOLEAN NOT NULL,
    "aggregate_fan_in" INTEGER,
    "stop_taken" BOOLEAN NOT NULL,
    "policy_version" TEXT,
    "r_total" DOUBLE PRECISION NOT NULL,
    "agents_spawned_bucket" TEXT NOT NULL,
    "messages_per_agent_bucket" TEXT NOT NULL,
    "aggregate_fan_in_bucket" TEXT NOT NULL,

    CONSTRAINT "trace_decisions_pkey" PRIMARY KEY ("trace_id")
);

-- CreateIndex
CREATE INDEX "trace_decisions_policy_version_idx" ON "trace_decisions"("policy_version");

-- AddForeignKey
ALTER TABLE "trace_decisions" ADD CONSTRAINT "trace_decisions_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
