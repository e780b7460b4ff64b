import "server-only";
import type { QueueOrder } from "@/lib/api/queues";
import { Prisma } from "@/lib/generated/prisma/client";

type Db = Pick<Prisma.TransactionClient, "$executeRaw">;

/**
 * Re-numbers a queue's items for an order (lib/api/queues.ts QUEUE_ORDERS).
 * `judge_disagreement` scores each unit over the queue's families from the
 * current values of the project's judges: disagreement is the largest
 * per-family standard deviation between judges, certainty the smallest
 * per-family |mean| (values on [-1, 1]; a trace-level task_success 0/1
 * is read as 2v - 1, so 0.5 is the least certain). Units are handed out by
 * disagreement (highest first), then certainty (lowest first); units no
 * judge labelled come last; ties keep trace order (oldest trace, event order).
 */
export function reorderItems(db: Db, queueId: number, projectId: number, families: string[], order: QueueOrder): Prisma.PrismaPromise<number> {
  const byJudges =
    order === "judge_disagreement"
      ? Prisma.sql`(s.spread IS NULL), s.spread DESC, s.certainty ASC,`
      : Prisma.empty;
  return db.$executeRaw`
    WITH scored AS (
      SELECT i.id, t.id AS trace_db_id, coalesce(e.seq, 0) AS seq, s.spread, s.certainty
      FROM queue_items i
      LEFT JOIN traces t ON t.trace_id = i.trace_key
      LEFT JOIN events e ON e.trace_id = t.id AND e.event_id = i.event_id
      LEFT JOIN LATERAL (
        SELECT max(f.spread) AS spread, min(f.certainty) AS certainty FROM (
          SELECT stddev_pop(v) AS spread, abs(avg(v)) AS certainty FROM (
            SELECT jl.family, CASE WHEN jl.event_id = '' AND jl.family = 'task_success' THEN 2 * jl.value - 1 ELSE jl.value END AS v
            FROM judge_labels jl JOIN judges j ON j.id = jl.judge_id
            WHERE jl.trace_key = i.trace_key AND jl.event_id = i.event_id AND jl.family = ANY(${families})
              AND jl.current AND jl.value IS NOT NULL AND j.project_id = ${projectId}
          ) v GROUP BY v.family
        ) f
      ) s ON true
      WHERE i.queue_id = ${queueId}
    )
    UPDATE queue_items q SET position = r.pos
    FROM (SELECT id, (row_number() OVER (ORDER BY ${byJudges} trace_db_id NULLS LAST, seq, id))::int - 1 AS pos FROM scored s) r
    WHERE q.id = r.id`;
}
