-- CreateTable
CREATE TABLE "graph_pages" (
    "trace_id" INTEGER NOT NULL,
    "from_seq" INTEGER NOT NULL,
    "limit" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,
    "json" TEXT NOT NULL,

    CONSTRAINT "graph_pages_pkey" PRIMARY KEY ("trace_id","from_seq","limit")
);

-- AddForeignKey
ALTER TABLE "graph_pages" ADD CONSTRAINT "graph_pages_trace_id_fkey" FOREIGN KEY ("trace_id") REFERENCES "traces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
