-- CreateTable
CREATE TABLE "model_calls" (
    "trace_id" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "call_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "t" DOUBLE PRECISION NOT NULL,
    "t_end" DOUBLE PRECISION,
    "model" TEXT,
    "input" JSON NOT NULL,
    "output" JSON NOT NULL,
    "input_tokens" DOUBLE PRECISION,
    "output_tokens" DOUBLE PRECISION,
    "prompt_token_ids" INTEGER[],
    "response_token_ids" INTEGER[],
    "response_id" TEXT,
    "event_ids" JSONB NOT NULL,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("trace_id","seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_calls_trace_id_call_id_key" ON "model_calls"("trace_id", "call_id");

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
