-- CreateTable
CREATE TABLE "gateway_upstreams" (
    "project_id" INTEGER NOT NULL,
    "base_url" TEXT NOT NULL,
    "api_key_cipher" TEXT,
    "max_reply_bytes" INTEGER NOT NULL DEFAULT 16777216,
    "timeout_ms" INTEGER NOT NULL DEFAULT 600000,
    "request_token_ids" BOOLEAN NOT NULL DEFAULT false,
    "request_logprobs" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gateway_upstreams_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "gateway_runs" (
    "project_id" INTEGER NOT NULL,
    "run_key" TEXT NOT NULL,
    "trace_id" TEXT NOT NULL,
    "auto" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'receiving',
    "call_count" INTEGER NOT NULL DEFAULT 0,
    "first_call_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_call_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_at" TIMESTAMPTZ(3),
    "finalised_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "gateway_runs_pkey" PRIMARY KEY ("project_id","run_key")
);

-- CreateTable
CREATE TABLE "gateway_calls" (
    "id" BIGSERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "run_key" TEXT NOT NULL,
    "call" JSON NOT NULL,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gateway_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gateway_runs_status_last_call_at_idx" ON "gateway_runs"("status", "last_call_at");

-- CreateIndex
CREATE INDEX "gateway_calls_project_id_run_key_id_idx" ON "gateway_calls"("project_id", "run_key", "id");

-- AddForeignKey
ALTER TABLE "gateway_upstreams" ADD CONSTRAINT "gateway_upstreams_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_runs" ADD CONSTRAINT "gateway_runs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gateway_calls" ADD CONSTRAINT "gateway_calls_project_id_run_key_fkey" FOREIGN KEY ("project_id", "run_key") REFERENCES "gateway_runs"("project_id", "run_key") ON DELETE CASCADE ON UPDATE CASCADE;
