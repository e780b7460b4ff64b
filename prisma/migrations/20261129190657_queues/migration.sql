-- CreateTable
CREATE TABLE "queues" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "families" TEXT[],
    "annotators_per_item" INTEGER NOT NULL DEFAULT 1,
    "blind" BOOLEAN NOT NULL DEFAULT true,
    "reservation_seconds" INTEGER NOT NULL DEFAULT 900,
    "created_by_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "queue_assignees" (
    "queue_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "queue_assignees_pkey" PRIMARY KEY ("queue_id","user_id")
);

-- CreateTable
CREATE TABLE "queue_items" (
    "id" SERIAL NOT NULL,
    "queue_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "trace_key" TEXT NOT NULL,
    "event_id" TEXT NOT NULL DEFAULT '',
    "done_count" INTEGER NOT NULL DEFAULT 0,
    "reserved_by" INTEGER,
    "reserved_until" TIMESTAMPTZ(3),

    CONSTRAINT "queue_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "queue_work" (
    "item_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queue_work_pkey" PRIMARY KEY ("item_id","user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "queues_project_id_name_key" ON "queues"("project_id", "name");

-- CreateIndex
CREATE INDEX "queue_items_queue_id_done_count_position_idx" ON "queue_items"("queue_id", "done_count", "position");

-- CreateIndex
CREATE UNIQUE INDEX "queue_items_queue_id_trace_key_event_id_key" ON "queue_items"("queue_id", "trace_key", "event_id");

-- CreateIndex
CREATE INDEX "queue_work_user_id_idx" ON "queue_work"("user_id");

-- AddForeignKey
ALTER TABLE "queue_assignees" ADD CONSTRAINT "queue_assignees_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queue_work" ADD CONSTRAINT "queue_work_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "queue_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
