-- Search uses PostgreSQL's trigram machinery (pg_trgm ships with PostgreSQL:
-- embedded-postgres 18 and Debian's postgresql-15 both have it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- AlterTable
ALTER TABLE "traces" ADD COLUMN     "agent_count" INTEGER,
ADD COLUMN     "error_count" INTEGER,
ADD COLUMN     "total_cost" DOUBLE PRECISION,
ADD COLUMN     "total_tokens" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "event_content_content_trgm_idx" ON "event_content" USING GIN ("content" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "events_agent_trace_id_idx" ON "events"("agent", "trace_id");

-- CreateIndex
CREATE INDEX "events_tool_trace_id_idx" ON "events"("tool", "trace_id");

-- CreateIndex
CREATE INDEX "events_type_trace_id_idx" ON "events"("type", "trace_id");

-- CreateIndex
CREATE INDEX "events_status_trace_id_idx" ON "events"("status", "trace_id");

-- CreateIndex
CREATE INDEX "events_agent_trgm_idx" ON "events" USING GIN ("agent" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "events_tool_trgm_idx" ON "events" USING GIN ("tool" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "traces_created_at_id_idx" ON "traces"("created_at", "id");

-- CreateIndex
CREATE INDEX "traces_event_count_id_idx" ON "traces"("event_count", "id");

-- CreateIndex
CREATE INDEX "traces_e1_id_idx" ON "traces"("e1", "id");

-- CreateIndex
CREATE INDEX "traces_makespan_id_idx" ON "traces"("makespan", "id");

-- CreateIndex
CREATE INDEX "traces_total_tokens_id_idx" ON "traces"("total_tokens", "id");

-- CreateIndex
CREATE INDEX "traces_total_cost_id_idx" ON "traces"("total_cost", "id");

-- CreateIndex
CREATE INDEX "traces_agent_count_id_idx" ON "traces"("agent_count", "id");

-- CreateIndex
CREATE INDEX "traces_error_count_id_idx" ON "traces"("error_count", "id");

-- Metadata search (ILIKE over the JSON text); an expression index, which
-- schema.prisma cannot spell, so it lives only here.
CREATE INDEX "traces_metadata_trgm_idx" ON "traces" USING GIN ((metadata::text) gin_trgm_ops);

-- Fill the list columns of traces stored before this migration
-- (new traces get them at ingest, lib/trace/summary.ts).
UPDATE "traces" t SET
  "total_tokens" = COALESCE(NULLIF(e.tokens, 0), (t.costs->>'tokens')::float8, 0),
  "total_cost" = COALESCE((t.costs->>'cost_usd')::float8, (t.costs->>'usd')::float8, (t.costs->>'cost')::float8),
  "agent_count" = e.agents,
  "error_count" = e.errors
FROM (
  SELECT trace_id, SUM(tokens) AS tokens, COUNT(DISTINCT agent)::int AS agents, COUNT(*) FILTER (WHERE status = 'error')::int AS errors
  FROM "events" GROUP BY trace_id
) e
WHERE e.trace_id = t.id;
