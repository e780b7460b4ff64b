-- AlterTable
ALTER TABLE "gateway_calls" ADD COLUMN     "claimed_by" TEXT,
ADD COLUMN     "otel_span_id" TEXT,
ADD COLUMN     "otel_trace_id" TEXT,
ADD COLUMN     "t" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "gateway_calls_project_id_otel_trace_id_idx" ON "gateway_calls"("project_id", "otel_trace_id");

-- CreateIndex
CREATE INDEX "gateway_calls_project_id_t_idx" ON "gateway_calls"("project_id", "t");
