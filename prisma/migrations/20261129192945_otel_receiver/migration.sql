-- CreateTable
CREATE TABLE "otel_traces" (
    "trace_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'receiving',
    "span_count" INTEGER NOT NULL DEFAULT 0,
    "service" TEXT,
    "root_name" TEXT,
    "first_span_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_span_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_at" TIMESTAMPTZ(3),
    "finalised_at" TIMESTAMPTZ(3),
    "error" TEXT,

    CONSTRAINT "otel_traces_pkey" PRIMARY KEY ("trace_id")
);

-- CreateTable
CREATE TABLE "otel_spans" (
    "trace_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "span" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otel_spans_pkey" PRIMARY KEY ("trace_id","span_id")
);

-- CreateIndex
CREATE INDEX "otel_traces_status_last_span_at_idx" ON "otel_traces"("status", "last_span_at");

-- AddForeignKey
ALTER TABLE "otel_spans" ADD CONSTRAINT "otel_spans_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "otel_traces"("trace_id") ON DELETE CASCADE ON UPDATE CASCADE;
