-- CreateTable
CREATE TABLE "judge_attributions" (
    "id" SERIAL NOT NULL,
    "judge_id" INTEGER NOT NULL,
    "trace_key" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "event_id" TEXT,
    "agent" TEXT,
    "reason" TEXT,
    "questions" JSONB NOT NULL DEFAULT '[]',
    "raw" TEXT,
    "error" TEXT,
    "model" TEXT NOT NULL,
    "prompt_hash" TEXT NOT NULL,
    "tokens_in" INTEGER,
    "tokens_out" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "judge_attributions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "judge_attributions_judge_id_trace_key_mode_key" ON "judge_attributions"("judge_id", "trace_key", "mode");

-- AddForeignKey
ALTER TABLE "judge_attributions" ADD CONSTRAINT "judge_attributions_judge_id_fkey" FOREIGN KEY ("judge_id") REFERENCES "judges"("id") ON DELETE CASCADE ON UPDATE CASCADE;
