-- CreateTable
CREATE TABLE "trace_diagnostics" (
    "trace_id" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "pseudo_parallelism" DOUBLE PRECISION,
    "free_riding" DOUBLE PRECISION,
    "communication_padding" DOUBLE PRECISION,
    "tool_spam" DOUBLE PRECISION,
    "flags" TEXT[],
    "evidence" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trace_diagnostics_pkey" PRIMARY KEY ("trace_id")
);

-- CreateIndex
CREATE INDEX "trace_diagnostics_flags_idx" ON "trace_diagnostics" USING GIN ("flags");

-- AddForeignKey
ALTER TABLE "trace_diagnostics" ADD CONSTRAINT "trace_diagnostics_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
