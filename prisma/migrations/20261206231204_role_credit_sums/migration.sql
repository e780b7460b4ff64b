-- CreateTable
CREATE TABLE "role_credit_sums" (
    "trace_id" INTEGER NOT NULL,
    "setting" TEXT NOT NULL,
    "inputs" TEXT NOT NULL,
    "sums" TEXT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "role_credit_sums_pkey" PRIMARY KEY ("trace_id","setting")
);

-- AddForeignKey
ALTER TABLE "role_credit_sums" ADD CONSTRAINT "role_credit_sums_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
