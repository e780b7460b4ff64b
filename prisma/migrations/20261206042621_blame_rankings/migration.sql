-- CreateTable
CREATE TABLE "blame_rankings" (
    "trace_id" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "model_key" TEXT NOT NULL,
    "total_events" INTEGER NOT NULL,
    "events" JSONB NOT NULL,
    "agents" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blame_rankings_pkey" PRIMARY KEY ("trace_id","method")
);

-- AddForeignKey
ALTER TABLE "blame_rankings" ADD CONSTRAINT "blame_rankings_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
